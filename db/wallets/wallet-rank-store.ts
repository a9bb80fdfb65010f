import { DEFAULT_MIN_TOTAL } from '../../domain/wallets/leaderboards';
import { smartScoreSql, type SmartScoreVersion } from '../../domain/wallets/smart-score';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

/**
 * The rank snapshot of a score version: the ranked wallets (total >= 8) grouped by (smart score, sample size), each
 * group with how many ranked wallets are strictly ahead of it. A wallet's rank is then one index probe (the nearest
 * group ahead of it, wallet-read-store.ts) instead of a count down the leaderboard per request. Rebuilding it reads
 * the whole table once (a sequential scan: the expression index cannot return its values), so a Schedule does it
 * every few minutes, off the request path; it replaces the version's groups in one transaction.
 */
export function createWalletRankStore(handle: Db) {
  const db = knexOf(handle);
  return {
    async refresh(v: SmartScoreVersion, now: Date): Promise<{ ranked: number; groups: number }> {
      return db.transaction(async (trx) => {
        await trx('wallet_rank_groups').where({ score_version: v.id }).delete();
        await trx.raw(
          `INSERT INTO wallet_rank_groups (score_version, score, total, ahead, size)
           SELECT ?, score, total, coalesce(sum(size) OVER (ORDER BY score DESC, total DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0), size
           FROM (SELECT ${smartScoreSql(v)} AS score, total, count(*) AS size FROM wallet_records WHERE total >= ${DEFAULT_MIN_TOTAL} GROUP BY 1, 2) g`,
          [v.id],
        );
        const r = await trx('wallet_rank_groups')
          .where({ score_version: v.id })
          .first(trx.raw('coalesce(sum(size), 0)::bigint AS ranked'), trx.raw('count(*)::int AS groups'));
        const ranked = Number(r?.ranked ?? 0);
        const groups = Number(r?.groups ?? 0);
        await trx('wallet_rank_snapshots').insert({ score_version: v.id, ranked, groups, built_at: now }).onConflict('score_version').merge();
        return { ranked, groups };
      });
    },
  };
}
export type WalletRankStore = ReturnType<typeof createWalletRankStore>;
