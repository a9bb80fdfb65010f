import { BASE_RATE_MULTIPLES, CURVE_INVARIANT, VSOL_INNER_EDGES, type BaseRateCell, type BaseRateCounts } from '../../domain/accuracy/base-rates';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

/** What the window held: launches by source (`live`, `synthetic`, `backfill`) and the first and last resolution. */
export type BaseRateWindow = { launches: number; sources: Record<string, number>; firstResolvedAt: Date | null; lastResolvedAt: Date | null };

export type BaseRateProjection = {
  computedAt: Date;
  windowDays: number;
  windowFrom: Date;
  windowTo: Date;
  labelVersion: string;
  rugLabelVersion: string;
  window: BaseRateWindow;
  cells: BaseRateCell[];
};

/**
 * Labels of every resolved launch: the outcome row this deployment (or a backfill) wrote, else the seeded history's
 * labels (synthetic launches have no outcome row, so they never count as this deployment's resolutions).
 */
const LABELS_SQL = `
  SELECT mint, graduated, rugged, rug_label_version FROM mint_outcomes WHERE label_version = :labelVersion
  UNION ALL
  (SELECT DISTINCT ON (h.mint) h.mint, h.graduated, h.rugged, h.rug_label_version
     FROM history_observations h
    WHERE h.label_version = :labelVersion AND NOT EXISTS (SELECT 1 FROM mint_outcomes o WHERE o.mint = h.mint)
    ORDER BY h.mint)`;

/** The grid observations of launches resolved in the window, with their labels. */
const WINDOW_SQL = `
  WITH labels AS (${LABELS_SQL})
  SELECT r.mint, r.source, r.age_s, r.price_sol, r.peak_mult_24h, r.resolved_at, l.graduated, l.rugged, l.rug_label_version
    FROM runner_observations r JOIN labels l ON l.mint = r.mint
   WHERE r.label_version = :labelVersion AND r.resolved_at >= :from AND r.resolved_at < :to`;

/** The base-rates projection: computed from the runner grid corpus by the scheduled activity, one row read by the API. */
export function createBaseRateStore(handle: Db) {
  const db = knexOf(handle);
  return {
    /** Counts per (grid age, virtual-SOL band) and the window's summary, in SQL: a 30-day window is millions of rows. */
    async compute(from: Date, to: Date, labelVersion: string, rugLabelVersion: string): Promise<{ counts: BaseRateCounts[]; window: BaseRateWindow }> {
      const params = { labelVersion, rugLabelVersion, from, to, k: CURVE_INVARIANT, edges: `{${VSOL_INNER_EDGES.join(',')}}` };
      const reached = BASE_RATE_MULTIPLES.map((m) => `count(*) FILTER (WHERE w.peak_mult_24h >= ${Number(m)})::int AS reached_${m}`).join(', ');
      const [cells, summary] = await Promise.all([
        db.raw(
          `WITH w AS (${WINDOW_SQL})
           SELECT w.age_s, width_bucket(sqrt(w.price_sol * :k), :edges::float8[]) AS band, count(*)::int AS launches,
                  count(*) FILTER (WHERE w.graduated)::int AS graduated, ${reached},
                  count(*) FILTER (WHERE w.rug_label_version = :rugLabelVersion)::int AS rug_labelled,
                  count(*) FILTER (WHERE w.rug_label_version = :rugLabelVersion AND w.rugged)::int AS rugged
             FROM w GROUP BY 1, 2`,
          params,
        ),
        db.raw(
          `WITH w AS (${WINDOW_SQL})
           SELECT w.source, count(DISTINCT w.mint)::int AS launches, min(w.resolved_at) AS first, max(w.resolved_at) AS last
             FROM w GROUP BY 1 ORDER BY 1`,
          params,
        ),
      ]);
      const counts: BaseRateCounts[] = cells.rows.map((r: any) => ({
        ageS: r.age_s,
        band: Number(r.band),
        launches: r.launches,
        graduated: r.graduated,
        reached: BASE_RATE_MULTIPLES.map((m) => r[`reached_${m}`] as number),
        rugLabelled: r.rug_labelled,
        rugged: r.rugged,
      }));
      const rows: { source: string; launches: number; first: Date; last: Date }[] = summary.rows;
      return {
        counts,
        window: {
          launches: rows.reduce((s, r) => s + r.launches, 0),
          sources: Object.fromEntries(rows.map((r) => [r.source, r.launches])),
          firstResolvedAt: rows.length ? new Date(Math.min(...rows.map((r) => r.first.getTime()))) : null,
          lastResolvedAt: rows.length ? new Date(Math.max(...rows.map((r) => r.last.getTime()))) : null,
        },
      };
    },

    /** Replaces the projection (one row): a retried run writes the same row again. */
    async write(p: BaseRateProjection): Promise<void> {
      await db('base_rate_projection')
        .insert({
          current: true,
          computed_at: p.computedAt,
          window_days: p.windowDays,
          window_from: p.windowFrom,
          window_to: p.windowTo,
          first_resolved_at: p.window.firstResolvedAt,
          last_resolved_at: p.window.lastResolvedAt,
          label_version: p.labelVersion,
          rug_label_version: p.rugLabelVersion,
          launches: p.window.launches,
          sources: JSON.stringify(p.window.sources),
          cells: JSON.stringify(p.cells),
        })
        .onConflict('current')
        .merge();
    },

    async read(): Promise<BaseRateProjection | undefined> {
      const r = await db('base_rate_projection').where({ current: true }).first();
      if (!r) return undefined;
      return {
        computedAt: r.computed_at,
        windowDays: r.window_days,
        windowFrom: r.window_from,
        windowTo: r.window_to,
        labelVersion: r.label_version,
        rugLabelVersion: r.rug_label_version,
        window: { launches: r.launches, sources: r.sources, firstResolvedAt: r.first_resolved_at, lastResolvedAt: r.last_resolved_at },
        cells: r.cells,
      };
    },
  };
}
export type BaseRateStore = ReturnType<typeof createBaseRateStore>;
