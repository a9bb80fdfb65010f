import type { Conditions, WindowActivity } from '../../domain/market/market-temperature';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export type StoredConditions = { computedAt: Date; state: 'ready' | 'warming'; historyHours: number; conditions: Conditions | null };

/**
 * Hourly market rollups and the latest temperature. Every rollup is recomputed from the fact tables
 * (mints, trades, graduations), so re-rolling an hour after late events arrive is harmless.
 */
export function createMarketConditionsStore(handle: Db) {
  const db = knexOf(handle);
  /** Activity in windows [start, start + lengthS) for each start, in one statement. */
  async function measureWindows(starts: Date[], lengthS: number): Promise<Map<number, WindowActivity>> {
    if (starts.length === 0) return new Map();
    const { rows } = await db.raw(
      `SELECT w.start,
              (SELECT count(*) FROM mints m WHERE m.created_at >= w.start AND m.created_at < w.stop) AS launches,
              (SELECT count(*) FROM mint_graduations g
                WHERE coalesce(g.completed_at, g.migrated_at) >= w.start AND coalesce(g.completed_at, g.migrated_at) < w.stop) AS graduations,
              t.trades, t.volume_lamports, t.unique_buyers, t.vsol_inflow_lamports
         FROM (SELECT s AS start, s + make_interval(secs => ?) AS stop FROM unnest(?::timestamptz[]) AS s) w
         CROSS JOIN LATERAL (
           SELECT count(*) AS trades,
                  coalesce(sum(sol_lamports), 0) AS volume_lamports,
                  count(DISTINCT trader) FILTER (WHERE is_buy) AS unique_buyers,
                  coalesce(sum(CASE WHEN is_buy THEN sol_lamports ELSE -sol_lamports END), 0) AS vsol_inflow_lamports
             FROM trades WHERE at >= w.start AND at < w.stop) t`,
      [lengthS, starts],
    );
    return new Map(
      (rows as Record<string, unknown>[]).map((r) => [
        (r.start as Date).getTime(),
        {
          launches: Number(r.launches),
          graduations: Number(r.graduations),
          trades: Number(r.trades),
          volumeLamports: Number(r.volume_lamports),
          uniqueBuyers: Number(r.unique_buyers),
          vsolInflowLamports: Number(r.vsol_inflow_lamports),
        },
      ]),
    );
  }

  return {
    measureWindows,

    /** The first launch or trade we ever stored: history before it is unknown, not quiet. */
    async firstEventAt(): Promise<Date | null> {
      const { rows } = await db.raw(`SELECT least((SELECT min(created_at) FROM mints), (SELECT min(at) FROM trades)) AS first`);
      return (rows[0]?.first as Date | null) ?? null;
    },

    /** Which of these hours have a rollup already. */
    async rolledHours(hours: Date[]): Promise<Set<number>> {
      if (hours.length === 0) return new Set();
      const rows = await db('market_hourly').whereIn('hour', hours).select('hour');
      return new Set(rows.map((r: { hour: Date }) => r.hour.getTime()));
    },

    async rollUp(hours: Date[], now: Date): Promise<void> {
      const measured = await measureWindows(hours, 3600);
      const rows = [...measured].map(([hour, a]) => ({
        hour: new Date(hour),
        launches: a.launches,
        graduations: a.graduations,
        trades: a.trades,
        volume_lamports: a.volumeLamports,
        unique_buyers: a.uniqueBuyers,
        vsol_inflow_lamports: a.vsolInflowLamports,
        rolled_at: now,
      }));
      if (rows.length) await db('market_hourly').insert(rows).onConflict('hour').merge();
    },

    async hourly(from: Date, to: Date): Promise<WindowActivity[]> {
      const rows = await db('market_hourly').where('hour', '>=', from).andWhere('hour', '<', to).orderBy('hour');
      return rows.map((r: Record<string, number>) => ({
        launches: r.launches!,
        graduations: r.graduations!,
        trades: r.trades!,
        volumeLamports: r.volume_lamports!,
        uniqueBuyers: r.unique_buyers!,
        vsolInflowLamports: r.vsol_inflow_lamports!,
      }));
    },

    async save(s: StoredConditions): Promise<void> {
      await db('market_conditions')
        .insert({
          id: 1,
          computed_at: s.computedAt,
          state: s.state,
          history_hours: s.historyHours,
          snapshot: s.conditions ? JSON.stringify(s.conditions) : null,
        })
        .onConflict('id')
        .merge();
    },

    async latest(): Promise<StoredConditions | undefined> {
      const r = await db('market_conditions').where({ id: 1 }).first();
      if (!r) return undefined;
      return { computedAt: r.computed_at, state: r.state, historyHours: r.history_hours, conditions: r.snapshot as Conditions | null };
    },
  };
}
export type MarketConditionsStore = ReturnType<typeof createMarketConditionsStore>;
