import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

/**
 * Daily ranks of watched wallets by smart score: smart wallets are ranked 1…n (ties by address), the others keep
 * their score with no rank. Re-ranking during the same UTC day overwrites that day's row, so the history holds one
 * row per wallet per day.
 */
export function createPerpsRankStore(handle: Db) {
  const db = knexOf(handle);
  return {
    async rankDay(exchange: string, date: string): Promise<{ ranked: number; scored: number }> {
      const { rows } = await db.raw(
        `INSERT INTO perps_wallet_ranks AS r (exchange, wallet, date, rank, smart_score)
         SELECT exchange, wallet, ?::date,
                CASE WHEN smart THEN row_number() OVER (PARTITION BY smart ORDER BY smart_score DESC NULLS LAST, wallet) END,
                smart_score
         FROM perps_wallets WHERE exchange = ? AND watched AND smart_score IS NOT NULL
         ON CONFLICT (exchange, wallet, date) DO UPDATE SET rank = excluded.rank, smart_score = excluded.smart_score
         RETURNING rank`,
        [date, exchange],
      );
      const list = rows as { rank: number | null }[];
      return { ranked: list.filter((r) => r.rank !== null).length, scored: list.length };
    },

    async history(wallet: string, days: number): Promise<{ exchange: string; date: string; rank: number | null; smartScore: number | null }[]> {
      const rows = await db('perps_wallet_ranks')
        .where({ wallet: wallet.toLowerCase() })
        .orderBy('date', 'desc')
        .limit(days)
        .select('exchange', db.raw(`to_char(date, 'YYYY-MM-DD') AS date`), 'rank', 'smart_score');
      return rows.map((r: { exchange: string; date: string; rank: number | null; smart_score: number | null }) => ({
        exchange: r.exchange,
        date: r.date,
        rank: r.rank,
        smartScore: r.smart_score,
      }));
    },
  };
}
export type PerpsRankStore = ReturnType<typeof createPerpsRankStore>;
