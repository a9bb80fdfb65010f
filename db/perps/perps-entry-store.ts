import type { PerpsHorizon, PerpsSide } from '../../domain/perps/perps-types';
import { emptyScope, type ScopeSums } from '../../domain/perps/win-rate-aggregation';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export type WinScope = 'overall' | 'wallet' | 'market';
export const OVERALL_KEY = 'all';

export type EntryToJudgeRow = { id: number; exchange: string; wallet: string; market: string; side: PerpsSide; priceAtDetection: number; detectedAt: Date };
export type JudgmentRow = { horizon: PerpsHorizon; dueAt: Date; price: number; priceAt: Date; moveBps: number; win: boolean; judgedAt: Date };

/**
 * Entries' judging: the outbox of entries whose judging workflow is not started yet, and the judgments, each
 * written once per (entry, horizon) together with the win sums it adds to (overall, per wallet, per market), so a
 * retried judging activity never counts an entry twice.
 */
export function createPerpsEntryStore(handle: Db) {
  const db = knexOf(handle);
  return {
    async unjudgedSmartEntries(limit: number): Promise<{ id: number; detectedAt: Date }[]> {
      const rows = await db('perps_entries').where({ smart: true }).whereNull('judging_started_at').orderBy('id').limit(limit).select('id', 'detected_at');
      return rows.map((r: { id: number; detected_at: Date }) => ({ id: Number(r.id), detectedAt: r.detected_at }));
    },

    async markJudgingStarted(ids: readonly number[], at: Date): Promise<void> {
      if (ids.length) await db('perps_entries').whereIn('id', ids).whereNull('judging_started_at').update({ judging_started_at: at });
    },

    async entry(id: number): Promise<EntryToJudgeRow | undefined> {
      const r = await db('perps_entries').where({ id }).first('id', 'exchange', 'wallet', 'market', 'side', 'price_at_detection', 'detected_at');
      return (
        r && {
          id: Number(r.id),
          exchange: r.exchange,
          wallet: r.wallet,
          market: r.market,
          side: r.side,
          priceAtDetection: r.price_at_detection,
          detectedAt: r.detected_at,
        }
      );
    },

    /** Records a judgment once; returns false when it was already recorded (a retry). */
    async recordJudgment(e: EntryToJudgeRow, j: JudgmentRow): Promise<boolean> {
      return db.transaction(async (trx) => {
        const inserted = await trx('perps_entry_judgments')
          .insert({
            entry_id: e.id,
            horizon: j.horizon,
            due_at: j.dueAt,
            price: j.price,
            price_at: j.priceAt,
            move_bps: j.moveBps,
            win: j.win,
            judged_at: j.judgedAt,
          })
          .onConflict(['entry_id', 'horizon'])
          .ignore()
          .returning('entry_id');
        if (!inserted.length) return false;
        const scopes: [WinScope, string][] = [
          ['overall', OVERALL_KEY],
          ['wallet', e.wallet],
          ['market', e.market],
        ];
        await trx.raw(
          `INSERT INTO perps_win_sums AS s (scope, key, horizon, n, wins, sum_move_bps)
           SELECT x.scope, x.key, ?, 1, ?, ? FROM jsonb_to_recordset(?::jsonb) AS x(scope text, key text)
           ON CONFLICT (scope, key, horizon) DO UPDATE SET n = s.n + 1, wins = s.wins + excluded.wins, sum_move_bps = s.sum_move_bps + excluded.sum_move_bps`,
          [j.horizon, j.win ? 1 : 0, j.moveBps, JSON.stringify(scopes.map(([scope, key]) => ({ scope, key })))],
        );
        return true;
      });
    },

    async judgments(entryId: number): Promise<JudgmentRow[]> {
      const rows = await db('perps_entry_judgments').where({ entry_id: entryId }).orderBy('due_at');
      return rows.map((r: Record<string, any>) => ({
        horizon: r.horizon,
        dueAt: r.due_at,
        price: r.price,
        priceAt: r.price_at,
        moveBps: r.move_bps,
        win: r.win,
        judgedAt: r.judged_at,
      }));
    },

    async winSums(scope: WinScope, key: string): Promise<ScopeSums> {
      const out = emptyScope();
      const rows = await db('perps_win_sums').where({ scope, key });
      for (const r of rows as { horizon: PerpsHorizon; n: number; wins: number; sum_move_bps: number }[])
        if (r.horizon in out) out[r.horizon] = { n: r.n, wins: r.wins, sumMoveBps: r.sum_move_bps };
      return out;
    },
  };
}
export type PerpsEntryStore = ReturnType<typeof createPerpsEntryStore>;
