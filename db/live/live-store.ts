import type { TradeEvent } from '../../domain/launch/launch-events';
import type { LatestPrediction } from '../../domain/live/enriched-mint';
import { toMintRow, toTrade, type MintRow } from '../mint/mint-read-store';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export type LiveMintRow = MintRow;

/** The live list the projector writes and the API serves as is. */
export const LIVE_SNAPSHOT = 'live';
/** The Free tier's list: the newest snapshot at least FREE_LIVE_DELAY_S old, with `delay_s` set. */
export const LIVE_DELAYED_SNAPSHOT = 'live-delayed';
/** The live list's mints with smart wallets among their top buyers, written with it (`/api/v1/smart_money_active`). */
export const SMART_MONEY_SNAPSHOT = 'smart-money';

/** Reads the live projector needs, and the snapshot it writes. */
export function createLiveStore(handle: Db) {
  const db = knexOf(handle);
  return {
    async mintsSince(since: Date): Promise<LiveMintRow[]> {
      const rows = await db('mints as m')
        .leftJoin('mint_graduations as g', 'g.mint', 'm.mint')
        .where('m.created_at', '>=', since)
        .where('m.mayhem', false)
        .select('m.*', 'g.completed_at', 'g.migrated_at');
      return rows.map(toMintRow);
    },

    /** Trades after `afterSeq` in ingest order (ingestion commits batches one at a time, so seq order is commit order). */
    async tradesAfter(afterSeq: number, limit: number): Promise<{ trades: TradeEvent[]; lastSeq: number }> {
      const rows = await db('trades').where('seq', '>', afterSeq).orderBy('seq').limit(limit);
      return { trades: rows.map(toTrade), lastSeq: rows.length ? rows[rows.length - 1].seq : afterSeq };
    },

    async tradesOf(mints: string[]): Promise<TradeEvent[]> {
      if (!mints.length) return [];
      const rows = await db('trades').whereIn('mint', mints).orderBy('seq');
      return rows.map(toTrade);
    },

    async maxTradeSeq(): Promise<number> {
      const r = await db('trades').max('seq as s').first();
      return Number(r?.s ?? 0);
    },

    async latestPredictions(mints: string[]): Promise<Map<string, LatestPrediction>> {
      if (!mints.length) return new Map();
      const rows = await db('predictions')
        .distinctOn('mint')
        .whereIn('mint', mints)
        .orderBy([{ column: 'mint' }, { column: 'age_bucket', order: 'desc' }])
        .select('mint', 'age_bucket', 'as_of', 'grad_prob', 'calibration', 'price_sol', 'rug_prob', 'runner_odds', 'survival_prob');
      return new Map(
        rows.map((r) => [
          r.mint,
          {
            ageBucket: r.age_bucket,
            asOf: r.as_of,
            gradProb: r.grad_prob,
            calibration: r.calibration,
            priceSol: r.price_sol,
            rugProb: r.rug_prob ?? null,
            runnerOdds: r.runner_odds ?? null,
            survivalProb: r.survival_prob ?? null,
          },
        ]),
      );
    },

    async writeSnapshot(name: string, body: string, count: number, builtAt: Date): Promise<number> {
      const r = await db.raw(
        `INSERT INTO live_snapshots (name, version, built_at, count, body) VALUES (?, 1, ?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET version = live_snapshots.version + 1, built_at = EXCLUDED.built_at, count = EXCLUDED.count,
           body = EXCLUDED.body, pre_restart = false
         RETURNING version`,
        [name, builtAt, count, body],
      );
      return Number(r.rows[0].version);
    },

    /**
     * Marks every snapshot as built before this worker started: readers call it stale until the projector's next
     * write. The version moves so API copies reload it.
     */
    async markPreRestart(): Promise<void> {
      await db('live_snapshots').update({ pre_restart: true, version: db.raw('version + 1') });
    },

    async readSnapshot(name: string): Promise<{ version: number; builtAt: Date; body: string; preRestart: boolean } | undefined> {
      const r = await db('live_snapshots').where({ name }).first('version', 'built_at', 'body', 'pre_restart');
      return r ? { version: Number(r.version), builtAt: r.built_at, body: r.body, preRestart: r.pre_restart } : undefined;
    },

    async snapshotVersion(name: string): Promise<number | undefined> {
      const r = await db('live_snapshots').where({ name }).first('version');
      return r ? Number(r.version) : undefined;
    },
  };
}
export type LiveStore = ReturnType<typeof createLiveStore>;
