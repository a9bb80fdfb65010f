import { CURRENT_SMART_SCORE_VERSION, float8, smartScore, smartScoreSql, type SmartScoreVersion } from './smart-score';
import type { WalletCounts, WalletRecord } from './wallet-record';

/**
 * The three leaderboards (`/api/v1/wallets/leaderboard?kind=`). Each ranks wallets with at least `min_total`
 * launches bought by one score, ties broken by a count and then the address, so every order is total and an
 * index on (score DESC, tie DESC, wallet) returns it without sorting.
 * - smart: smart_score (smart-score.ts).
 * - sniper: wallets whose fast-snipe rate is at least 0.70 (the public service's sniper threshold), ranked by
 *   the rug rate of the launches they sniped, shrunk like smart_score toward the prior rug rate:
 *   (sniped_rugged + k·p_r)/(fast_snipes + k), sniper-v1: (s_r + 1.05)/(s + 5). Highest first: the wallets
 *   whose snipes most often end in a rug (bundlers, insiders of rug farms: a sign to avoid what they snipe).
 *   Ties: more fast snipes first.
 * - service (the spec's "the service" kind; `graduate` is accepted for it): graduates called early, i.e.
 *   bought no later than the mint's 60 s score, as a share of every launch the wallet bought, shrunk toward
 *   the prior graduation rate: (early_graduated + k·p_g)/(total + k), service-v1: (g_e + 0.05)/(n + 5).
 *   Only wallets with at least one early graduate are ranked. Dividing by every launch bought, not by the
 *   early ones, keeps spray bots that buy every launch in its first second (and so every graduate early) at
 *   the base rate, and gives late buyers of graduates (momentum at 80% of the curve) no credit: this is the
 *   ranking the smart score cannot be, since a wallet buying only near completion has a high graduation rate
 *   without calling anything. Ties: more early graduates first.
 * The canonical name is `service` because openapi.yaml's enum and the spec-table test pin it; `graduate` is a
 * request alias only (responses always say `service`).
 */
export const LEADERBOARD_KINDS = ['smart', 'sniper', 'service'] as const;
export type LeaderboardKind = (typeof LEADERBOARD_KINDS)[number];
export const LEADERBOARD_KIND_ALIASES: Readonly<Record<string, LeaderboardKind>> = { graduate: 'service' };

export function canonicalLeaderboardKind(s: string): LeaderboardKind | null {
  if ((LEADERBOARD_KINDS as readonly string[]).includes(s)) return s as LeaderboardKind;
  return LEADERBOARD_KIND_ALIASES[s] ?? null;
}

export const SNIPER_V1 = { id: 'sniper-v1', minFastSnipeRate: 0.7, priorRugRate: 0.21, priorStrength: 5, offset: 1.05 } as const;
export const SERVICE_V1 = { id: 'service-v1', priorGraduationRate: 0.01, priorStrength: 5, offset: 0.05 } as const;
export const DEFAULT_MIN_TOTAL = 8;

type Counts = Pick<WalletCounts, 'total' | 'graduated' | 'rugged' | 'fastSnipes' | 'snipedRugged' | 'earlyGraduated'>;

/** Fast-snipe rate ≥ 0.70, compared as f/n so 7 of 10 is in (see sniperSqlPredicate for the integer form). */
export const isSniper = (r: Pick<WalletCounts, 'total' | 'fastSnipes'>): boolean => r.total > 0 && r.fastSnipes / r.total >= SNIPER_V1.minFastSnipeRate;

export type LeaderboardDefinition = {
  kind: LeaderboardKind;
  version: string;
  score(r: Counts): number;
  /** Besides total ≥ min_total. */
  eligible(r: Counts): boolean;
  tie(r: Counts): number;
  sql: { score: string; predicate: string; tie: string };
};

export function leaderboardDefinition(kind: LeaderboardKind, smart: SmartScoreVersion = CURRENT_SMART_SCORE_VERSION): LeaderboardDefinition {
  switch (kind) {
    case 'smart':
      return {
        kind,
        version: smart.id,
        score: (r) => smartScore(r, smart),
        eligible: () => true,
        tie: (r) => r.total,
        sql: { score: smartScoreSql(smart), predicate: 'true', tie: 'total' },
      };
    case 'sniper':
      return {
        kind,
        version: SNIPER_V1.id,
        score: (r) => (r.snipedRugged + SNIPER_V1.offset) / (r.fastSnipes + SNIPER_V1.priorStrength),
        eligible: isSniper,
        tie: (r) => r.fastSnipes,
        // 10·f ≥ 7·n is f/n ≥ 0.70 in integers: an immutable predicate a partial index can carry.
        sql: {
          score: `((sniped_rugged::float8 + ${float8(SNIPER_V1.offset)}) / (fast_snipes + ${float8(SNIPER_V1.priorStrength)}))`,
          predicate: '(10 * fast_snipes >= 7 * total)',
          tie: 'fast_snipes',
        },
      };
    case 'service':
      return {
        kind,
        version: SERVICE_V1.id,
        score: (r) => (r.earlyGraduated + SERVICE_V1.offset) / (r.total + SERVICE_V1.priorStrength),
        eligible: (r) => r.earlyGraduated >= 1,
        tie: (r) => r.earlyGraduated,
        sql: {
          score: `((early_graduated::float8 + ${float8(SERVICE_V1.offset)}) / (total + ${float8(SERVICE_V1.priorStrength)}))`,
          predicate: '(early_graduated >= 1)',
          tie: 'early_graduated',
        },
      };
  }
}

export type RankedWallet<R> = { rank: number; score: number; record: R };

/** Orders two eligible records as the leaderboard does: score, then tie count, both descending, then address. */
export function compareRanked(d: LeaderboardDefinition, a: Counts & { wallet: string }, b: Counts & { wallet: string }): number {
  return d.score(b) - d.score(a) || d.tie(b) - d.tie(a) || (a.wallet < b.wallet ? -1 : a.wallet > b.wallet ? 1 : 0);
}

/** The leaderboard over records held in memory: what the SQL query over the kind's index returns. */
export function rankWallets<R extends WalletRecord>(
  records: readonly R[],
  kind: LeaderboardKind,
  o: { minTotal?: number; limit?: number; smart?: SmartScoreVersion } = {},
): RankedWallet<R>[] {
  const d = leaderboardDefinition(kind, o.smart);
  const minTotal = o.minTotal ?? DEFAULT_MIN_TOTAL;
  return records
    .filter((r) => r.total >= minTotal && d.eligible(r))
    .sort((a, b) => compareRanked(d, a, b))
    .slice(0, o.limit ?? Infinity)
    .map((record, i) => ({ rank: i + 1, score: d.score(record), record }));
}

/**
 * The ranked-set query for a kind and min_total, parameterised by min_total ($1) and limit ($2). Each kind has
 * two partial indexes ordered like the query (leaderboardIndexSql): one over `total >= 8` and one over
 * `1 <= total < 8`. From 8 up the query walks the first; below 8 it walks both and merges them (Merge Append).
 * The branch is chosen here rather than left to the planner because a prepared (generic) plan cannot know that
 * `total >= $1` empties the lower index and would walk all of it. Each branch repeats its index's range as
 * literals, so a generic plan proves the partial index applies.
 */
export function leaderboardSql(kind: LeaderboardKind, minTotal: number, smart: SmartScoreVersion = CURRENT_SMART_SCORE_VERSION): string {
  if (!(Number.isInteger(minTotal) && minTotal >= 1)) throw new RangeError(`min_total must be an integer ≥ 1, got ${minTotal}`);
  const d = leaderboardDefinition(kind, smart);
  const order = `${d.sql.score} DESC, ${d.sql.tie} DESC, wallet`;
  const branch = (range: string) =>
    `SELECT *, ${d.sql.score} AS score FROM wallet_records WHERE ${range} AND total >= $1 AND ${d.sql.predicate} ORDER BY ${order} LIMIT $2`;
  const upper = branch(`total >= ${DEFAULT_MIN_TOTAL}`);
  if (minTotal >= DEFAULT_MIN_TOTAL) return upper;
  const lower = branch(`total >= 1 AND total < ${DEFAULT_MIN_TOTAL}`);
  return `SELECT * FROM ((${upper}) UNION ALL (${lower})) ranked ORDER BY score DESC, ${d.sql.tie} DESC, wallet LIMIT $2`;
}

/**
 * The two indexes a kind's leaderboard walks (per smart score version for `smart`): `total >= 8`, and below 8.
 * `table`: the live table, or the rebuild's `wallet_records_next` (built before the swap, so not concurrently).
 */
export function leaderboardIndexSql(
  kind: LeaderboardKind,
  range: 'from-min' | 'below-min',
  smart: SmartScoreVersion = CURRENT_SMART_SCORE_VERSION,
  o: { table?: string; concurrently?: boolean } = {},
): string {
  const d = leaderboardDefinition(kind, smart);
  const table = o.table ?? 'wallet_records';
  const name = leaderboardIndexName(kind, range, smart, table);
  const where = range === 'from-min' ? `total >= ${DEFAULT_MIN_TOTAL}` : `total >= 1 AND total < ${DEFAULT_MIN_TOTAL}`;
  // `total` trails the key where the tie is another count: min_total is then checked on the index entry, not
  // by a heap visit per entry (a large min_total walks far down the index).
  const key = `${d.sql.score} DESC, ${d.sql.tie} DESC, wallet${d.sql.tie === 'total' ? '' : ', total'}`;
  return `CREATE INDEX ${o.concurrently === false ? '' : 'CONCURRENTLY '}${name} ON ${table} (${key}) WHERE ${where} AND ${d.sql.predicate}`;
}

export function leaderboardIndexName(kind: LeaderboardKind, range: 'from-min' | 'below-min', smart: SmartScoreVersion, table = 'wallet_records'): string {
  const d = leaderboardDefinition(kind, smart);
  return `${table}_${d.version.replace(/-/g, '_')}_${range === 'from-min' ? 'from' : 'below'}_${DEFAULT_MIN_TOTAL}`;
}

/**
 * Rank and percentile of a ranked wallet from how many ranked wallets come before it in the leaderboard's
 * total order (score, tie count, address) and how many are ranked at all: rank = 1 + before, the position it
 * has on the leaderboard; percentile = share of ranked wallets at or below it (100 for the first).
 */
export function rankAndPercentile(before: number, ranked: number): { rank: number; percentile: number } {
  if (!(Number.isInteger(before) && Number.isInteger(ranked) && before >= 0 && before < ranked))
    throw new RangeError(`no rank with ${before} before it among ${ranked}`);
  return { rank: before + 1, percentile: (100 * (ranked - before)) / ranked };
}

/**
 * A wallet's rank on the smart leaderboard from a snapshot of the ranked set grouped by (score, sample size):
 * `ahead` ranked wallets are strictly ahead of it (a higher score, or the same score on a larger sample), so its
 * rank is 1 + ahead, shared with every wallet tied with it on both (competition ranking: the leaderboard lists
 * such ties by address). `ranked` is the snapshot's size; a wallet that entered the ranked set after the snapshot
 * can have every counted wallet ahead of it, so the size is at least ahead + 1.
 */
export function snapshotRank(ahead: number, ranked: number): { rank: number; percentile: number } {
  return rankAndPercentile(ahead, Math.max(ranked, ahead + 1));
}
