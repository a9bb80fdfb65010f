import { DEFAULT_MIN_TOTAL, leaderboardSql, snapshotRank, type LeaderboardKind } from '../../domain/wallets/leaderboards';
import { smartScoreSql, type SmartScoreVersion } from '../../domain/wallets/smart-score';
import { prefixRange, selectByKey, type WalletKey } from '../../domain/wallets/wallet-address';
import type { WalletCounts, WalletRecord } from '../../domain/wallets/wallet-record';
import type { WalletMatch } from '../../domain/wallets/wallet-views';
import { preparedQuery } from '../../platform/db';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

/** A wallet_records row as the domain's record. */
export const toWalletRecord = (r: any): WalletRecord => ({
  wallet: r.wallet,
  total: r.total,
  graduated: r.graduated,
  ran: r.ran,
  mid: r.mid,
  rugged: r.rugged,
  fastSnipes: r.fast_snipes,
  snipedRugged: r.sniped_rugged,
  early: r.early,
  earlyGraduated: r.early_graduated,
  buys: r.buys,
  solInvestedLamports: Number(r.sol_invested_lamports),
  firstSeenAt: r.first_seen_at,
  lastSeenAt: r.last_seen_at,
});

/** Prepared statements are named per text: a version id names one set of priors for good. */
const statementName = (...parts: string[]) => `wallets_${parts.join('_').replace(/[^a-z0-9_]/gi, '_')}`;

/**
 * The API's reads of the wallet index. Every read is an index probe or an index walk that stops at its limit:
 * a full address is the primary key, a prefix its range [prefix, prefix || '{') in "C" order, a leaderboard one
 * of its kind's partial expression indexes, a rank one probe of the rank snapshot.
 */
export function createWalletReadStore(handle: Db) {
  const db = knexOf(handle);
  return {
    /** The wallets a key selects, each with its rank (from the snapshot of `smart`) and its own launches as a creator. */
    async byKey(key: WalletKey, smart: SmartScoreVersion): Promise<WalletMatch[]> {
      const range = prefixRange(key.prefix);
      const exact = key.kind === 'address';
      const v = exact ? '$2' : '$3';
      const rows = await preparedQuery<any>(db, {
        name: statementName('by', key.kind, smart.id),
        text: `SELECT r.*, c.n_launches, c.n_resolved, c.n_5x, s.ranked,
                 CASE WHEN s.ranked IS NULL OR r.total < ${DEFAULT_MIN_TOTAL} THEN NULL ELSE coalesce(g.ahead, 0) END AS ahead
               FROM wallet_records r
               LEFT JOIN creators c ON c.creator = (r.wallet COLLATE "default")
               LEFT JOIN wallet_rank_snapshots s ON s.score_version = ${v}
               LEFT JOIN LATERAL (
                 SELECT x.ahead + x.size AS ahead FROM wallet_rank_groups x
                 WHERE x.score_version = ${v} AND (x.score, x.total) > (${smartScoreSql(smart, { graduated: 'r.graduated', rugged: 'r.rugged', total: 'r.total' })}, r.total)
                 ORDER BY x.score, x.total LIMIT 1) g ON r.total >= ${DEFAULT_MIN_TOTAL}
               WHERE ${exact ? 'r.wallet = $1' : 'r.wallet >= $1 AND r.wallet < $2'}
               LIMIT 100`,
        values: exact ? [key.address, smart.id] : [range.from, range.to, smart.id],
      });
      const matches = rows.map((r) => ({
        record: toWalletRecord(r),
        rank: r.ahead === null || r.ahead === undefined ? null : snapshotRank(Number(r.ahead), Number(r.ranked)),
        creator: r.n_launches === null || r.n_launches === undefined ? null : { nLaunches: r.n_launches, nResolved: r.n_resolved, n5x: r.n_5x },
        updatedAt: r.updated_at as Date,
      }));
      return selectByKey(
        key,
        matches.map((m) => ({ ...m, wallet: m.record.wallet })),
        (m) => m.record.total,
      );
    },

    /** One leaderboard from its kind's index (leaderboardSql): score descending, tie count descending, address. */
    async leaderboard(kind: LeaderboardKind, minTotal: number, limit: number, smart: SmartScoreVersion): Promise<{ record: WalletRecord; score: number }[]> {
      const rows = await preparedQuery<any>(db, {
        name: statementName('lb', kind, kind === 'smart' ? smart.id : '', minTotal >= DEFAULT_MIN_TOTAL ? 'from' : 'all'),
        text: leaderboardSql(kind, minTotal, smart),
        values: [minTotal, limit],
      });
      return rows.map((r) => ({ record: toWalletRecord(r), score: Number(r.score) }));
    },

    /** Records (the counts the smart score reads) of these full addresses; unknown wallets are absent. */
    async countsOf(wallets: readonly string[]): Promise<Map<string, Pick<WalletCounts, 'total' | 'graduated' | 'rugged'>>> {
      if (!wallets.length) return new Map();
      const rows = await preparedQuery<{ wallet: string; total: number; graduated: number; rugged: number }>(db, {
        name: 'wallets_counts_of',
        text: 'SELECT wallet, total, graduated, rugged FROM wallet_records WHERE wallet = ANY($1::text[])',
        values: [wallets],
      });
      return new Map(rows.map((r) => [r.wallet, { total: r.total, graduated: r.graduated, rugged: r.rugged }]));
    },

    /** Wallets in the live index (a maintained count: no scan). */
    async walletsIndexed(): Promise<number> {
      const r = await db('wallet_index_counts').where({ name: 'live' }).first('wallets');
      return Number(r?.wallets ?? 0);
    },
  };
}
export type WalletReadStore = ReturnType<typeof createWalletReadStore>;
