import { CONFIDENCE_BANDS } from '../../domain/scoring/confidence-band';
import type { MintFeatures } from '../../domain/scoring/mint-features';
import type { RugFeatures } from '../../domain/scoring/rug-features';
import type { ScoreAge } from '../../domain/scoring/score-age';
import { RUG_LABEL_VERSION } from '../../domain/launch/outcome-labels';
import { graduatedBy } from './before-graduation';
import { createHistoryStore, type HistorySource, type HistorySummary } from './history-store';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export type CorpusRecord = { mint: string; features: MintFeatures; graduated: boolean; resolvedAt: Date; observedAt: Date };
/** One resolved prediction row with every label the models learn from. */
export type ModelCorpusRecord = CorpusRecord & {
  /** The age the row was observed at (every row of one read has the age asked for). */
  ageBucket: ScoreAge;
  /** Null for rows logged before the rug model existed. */
  rugFeatures: RugFeatures | null;
  /** Null when the row was labelled by another rug definition than the one asked for. */
  rugged: boolean | null;
  /** Graduates with a known 30-minute outcome only. */
  sustained30m: boolean | null;
  /** Peak price after `observedAt` ÷ the price then; null when the prediction has no outcome row. */
  peakMult: number | null;
  /** `live`: this deployment's own resolved prediction; otherwise history it did not predict (history-store.ts). */
  source: 'live' | HistorySource;
};
/** What the corpus every model is fitted from holds (GET /api/scope): the resolved mints, plus any history. */
export type CorpusSummary = { resolvedMints: number; oldest: Date | null; newest: Date | null; history: HistorySummary[] };

export type ForwardCell = { lo: number; hi: number; n: number; graduated: number };

/** domain/scoring/knn-label-model.ts `modelFamily` in SQL: the name before `@` and the corpus tags at the end. */
const MODEL_FAMILY_SQL = `split_part(p.model_version, '@', 1) || coalesce(substring(p.model_version from '((\\+[a-z]+)+)$'), '')`;

/** Band boundaries for width_bucket: [0.05, 0.1, …, 0.9]; bucket i (1-based) is CONFIDENCE_BANDS[i-1]. */
const EDGES = CONFIDENCE_BANDS.slice(1).map((b) => b.lo);

/** A corpus row as the three sources select it (their columns named alike). */
const toCorpusRecord = (r: any, ageBucket: ScoreAge, rugLabelVersion: string, source: ModelCorpusRecord['source']): ModelCorpusRecord => ({
  mint: r.mint,
  ageBucket,
  features: r.features,
  rugFeatures: r.rug_features ?? null,
  graduated: r.graduated,
  rugged: r.rug_label_version === rugLabelVersion ? r.rugged : null,
  sustained30m: r.sustained_30m ?? null,
  peakMult: r.peak_mult_24h ?? null,
  resolvedAt: r.resolved_at,
  observedAt: r.as_of,
  source,
});

/** The newest `limit` of several sources by observation time (each already newest first and at most `limit`). */
function newestOf(sources: ModelCorpusRecord[][], limit: number): ModelCorpusRecord[] {
  const filled = sources.filter((s) => s.length > 0);
  if (filled.length <= 1) return filled[0] ?? [];
  return filled
    .flat()
    .sort((x, y) => y.observedAt.getTime() - x.observedAt.getTime())
    .slice(0, limit);
}

export function createCorpusStore(handle: Db) {
  const db = knexOf(handle);
  /**
   * Resolved mints observed at `ageBucket`, newest first, with every model's label: the features are the
   * immutable snapshot logged when the mint was scored at that age, so the corpus holds exactly what the
   * models could see then.
   */
  async function modelCorpus(ageBucket: ScoreAge, labelVersion: string, rugLabelVersion: string, limit: number): Promise<ModelCorpusRecord[]> {
    const sources = await Promise.all([
      scoredCorpus(ageBucket, labelVersion, rugLabelVersion, limit),
      warmingCorpus(ageBucket, labelVersion, rugLabelVersion, limit),
      historyCorpus(ageBucket, labelVersion, rugLabelVersion, limit),
    ]);
    // As this deployment resolves its own mints (scored, or seen while warming), they push the older history out.
    return newestOf(sources, limit);
  }

  async function historyCorpus(ageBucket: ScoreAge, labelVersion: string, rugLabelVersion: string, limit: number): Promise<ModelCorpusRecord[]> {
    const rows = await db('history_observations')
      .where({ age_bucket: ageBucket, label_version: labelVersion })
      .orderBy('as_of', 'desc')
      .limit(limit)
      .select(
        'mint',
        'source',
        'features',
        'rug_features',
        'as_of',
        'graduated',
        'rugged',
        'rug_label_version',
        'sustained_30m',
        'resolved_at',
        'peak_mult_24h',
      );
    return rows.map((r) => toCorpusRecord(r, ageBucket, rugLabelVersion, r.source));
  }

  /**
   * The deployment's own mints observed while its model was warming (score_skips): no score was logged for them, but
   * what was seen then is a corpus row like any other once the mint resolved, so a deployment without history grows
   * the corpus its first real model is fitted from.
   */
  async function warmingCorpus(ageBucket: ScoreAge, labelVersion: string, rugLabelVersion: string, limit: number): Promise<ModelCorpusRecord[]> {
    const rows = await db('score_skips as p')
      .join('mint_outcomes as o', 'o.mint', 'p.mint')
      .where('p.age_bucket', ageBucket)
      .where('p.reason', 'model_warming')
      .whereNotNull('p.features')
      .where('o.label_version', labelVersion)
      .whereNotExists(graduatedBy(db, 'p'))
      .orderBy('p.as_of', 'desc')
      .limit(limit)
      .select(
        'p.mint',
        'p.features',
        'p.rug_features',
        'p.as_of',
        'p.peak_mult_24h',
        'o.graduated',
        'o.rugged',
        'o.rug_label_version',
        'o.sustained_30m',
        'o.resolved_at',
      );
    return rows.map((r) => toCorpusRecord(r, ageBucket, rugLabelVersion, 'live'));
  }

  async function scoredCorpus(ageBucket: ScoreAge, labelVersion: string, rugLabelVersion: string, limit: number): Promise<ModelCorpusRecord[]> {
    const rows = await db('predictions as p')
      .join('mint_outcomes as o', 'o.mint', 'p.mint')
      .leftJoin('prediction_outcomes as po', 'po.prediction_id', 'p.id')
      .where('p.age_bucket', ageBucket)
      .where('o.label_version', labelVersion)
      // A row taken at or after graduation describes a graduate, not a launch that might graduate.
      .whereNotExists(graduatedBy(db, 'p'))
      // Newest by observation time, not resolution time: graduates resolve sooner than duds, so a cut by
      // resolution time would over-represent graduates. Every row here is final (resolved at the horizon).
      .orderBy('p.as_of', 'desc')
      .limit(limit)
      .select(
        'p.mint',
        'p.features',
        'p.rug_features',
        'p.as_of',
        'o.graduated',
        'o.rugged',
        'o.rug_label_version',
        'o.sustained_30m',
        'o.resolved_at',
        'po.peak_mult_24h',
      );
    return rows.map((r) => toCorpusRecord(r, ageBucket, rugLabelVersion, 'live'));
  }

  return {
    modelCorpus,

    /** Seeded history still being written: a model fitted now would be fitted on part of it. */
    seedingInProgress: () => createHistoryStore(handle).seedingInProgress(),

    /**
     * The mints this deployment resolved at 24 h, and the history beside them. A backfilled mint has an outcome row
     * too (for the wallet index and creator records): it is counted once, as history.
     */
    async summary(): Promise<CorpusSummary> {
      const [r, history] = await Promise.all([
        db('mint_outcomes as o')
          .whereNotExists(db('history_observations as h').whereRaw('h.mint = o.mint'))
          .select(db.raw('count(*)::int as n'), db.raw('min(o.resolved_at) as oldest'), db.raw('max(o.resolved_at) as newest'))
          .first(),
        createHistoryStore(handle).summary(),
      ]);
      return { resolvedMints: r?.n ?? 0, oldest: r?.oldest ?? null, newest: r?.newest ?? null, history };
    },

    /** The grad_prob corpus alone (the benchmark and backtest read it). */
    async corpus(ageBucket: ScoreAge, labelVersion: string, limit: number): Promise<CorpusRecord[]> {
      const rows = await modelCorpus(ageBucket, labelVersion, RUG_LABEL_VERSION, limit);
      return rows.map((r) => ({ mint: r.mint, features: r.features, graduated: r.graduated, resolvedAt: r.resolvedAt, observedAt: r.observedAt }));
    },

    /**
     * Forward accuracy per confidence cell: resolved live predictions at this age of one model family (the serving
     * one: another family's bands mean something else), taken before graduation and logged before resolution, by
     * the band they were in.
     */
    async forwardCells(ageBucket: number, family: string): Promise<ForwardCell[]> {
      const rows = await db('predictions as p')
        .join('prediction_outcomes as o', 'o.prediction_id', 'p.id')
        .where('p.age_bucket', ageBucket)
        .whereRaw(`${MODEL_FAMILY_SQL} = ?`, [family])
        .whereRaw('p.predicted_at < o.resolved_at')
        .whereNotExists(graduatedBy(db, 'p'))
        .groupByRaw('1')
        .select(
          db.raw('width_bucket(p.grad_prob, ?::float8[]) as bucket', [`{${EDGES.join(',')}}`]),
          db.raw('count(*)::int as n'),
          db.raw('count(*) FILTER (WHERE o.graduated)::int as g'),
        );
      return CONFIDENCE_BANDS.map((b, i) => {
        const r = rows.find((x) => Number(x.bucket) === i);
        return { lo: b.lo, hi: b.hi, n: r?.n ?? 0, graduated: r?.g ?? 0 };
      });
    },
  };
}
export type CorpusStore = ReturnType<typeof createCorpusStore>;
