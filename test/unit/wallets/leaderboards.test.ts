import {
  canonicalLeaderboardKind,
  isSniper,
  leaderboardDefinition,
  leaderboardIndexSql,
  leaderboardSql,
  rankAndPercentile,
  rankWallets,
  SERVICE_V1,
  SNIPER_V1,
} from '../../../domain/wallets/leaderboards';
import { defineSmartScoreVersion, SMART_V1 } from '../../../domain/wallets/smart-score';
import { emptyRecord, type WalletCounts, type WalletRecord } from '../../../domain/wallets/wallet-record';

const seen = new Date('2026-11-01T00:00:00Z');
const rec = (wallet: string, c: Partial<WalletCounts>): WalletRecord => ({ ...emptyRecord(wallet), ...c, firstSeenAt: seen, lastSeenAt: seen });
const ids = (r: { record: WalletRecord }[]) => r.map((x) => x.record.wallet);

describe('leaderboard kinds', () => {
  it('are smart, sniper and service; graduate is accepted for service', () => {
    expect(['smart', 'sniper', 'service', 'graduate', 'early', 'SMART', ''].map(canonicalLeaderboardKind)).toEqual([
      'smart',
      'sniper',
      'service',
      'service',
      null,
      null,
      null,
    ]);
  });

  it('carry their versions: the smart score’s, sniper-v1 and service-v1', () => {
    expect(leaderboardDefinition('smart').version).toBe('smart-v1');
    expect(leaderboardDefinition('smart', defineSmartScoreVersion('smart-v9', 0.01, 0.2, 4)).version).toBe('smart-v9');
    expect(leaderboardDefinition('sniper').version).toBe('sniper-v1');
    expect(leaderboardDefinition('service').version).toBe('service-v1');
    // Offsets are k·p, written out for SQL.
    expect(SNIPER_V1.offset).toBeCloseTo(SNIPER_V1.priorStrength * SNIPER_V1.priorRugRate, 12);
    expect(SERVICE_V1.offset).toBeCloseTo(SERVICE_V1.priorStrength * SERVICE_V1.priorGraduationRate, 12);
  });
});

describe('the smart leaderboard', () => {
  const rs = [
    rec('A', { total: 8, graduated: 5 }), // 4/13
    rec('B', { total: 15, graduated: 7 }), // 6/20 = 0.3
    rec('C', { total: 25, graduated: 10 }), // 9/30 = 0.3, larger sample first
    rec('D', { total: 7, graduated: 7 }), // below min_total
    rec('E', { total: 40, graduated: 2, rugged: 20 }),
  ];

  it('ranks by smart_score, ties by sample size, only from min_total', () => {
    const top = rankWallets(rs, 'smart');
    expect(ids(top)).toEqual(['A', 'C', 'B', 'E']);
    expect(top.map((t) => t.rank)).toEqual([1, 2, 3, 4]);
    expect(top[0]!.score).toBe(4 / 13);
    expect(top[3]!.score).toBe(-19 / 45);
  });

  it('takes min_total and limit', () => {
    expect(ids(rankWallets(rs, 'smart', { minTotal: 1 }))).toEqual(['D', 'A', 'C', 'B', 'E']);
    expect(ids(rankWallets(rs, 'smart', { minTotal: 20 }))).toEqual(['C', 'E']);
    expect(ids(rankWallets(rs, 'smart', { limit: 2 }))).toEqual(['A', 'C']);
  });

  it('breaks a full tie by address', () => {
    const twins = [rec('Z', { total: 10, graduated: 6 }), rec('Y', { total: 10, graduated: 6 })];
    expect(ids(rankWallets(twins, 'smart'))).toEqual(['Y', 'Z']);
  });
});

describe('the sniper leaderboard', () => {
  it('takes wallets whose fast-snipe rate is 0.70 or more: 7 of 10 is in, 699 of 1000 and 6 of 9 are out', () => {
    expect(isSniper({ total: 10, fastSnipes: 7 })).toBe(true);
    expect(isSniper({ total: 1000, fastSnipes: 700 })).toBe(true);
    expect(isSniper({ total: 1000, fastSnipes: 699 })).toBe(false);
    expect(isSniper({ total: 9, fastSnipes: 6 })).toBe(false);
    expect(isSniper({ total: 0, fastSnipes: 0 })).toBe(false);
    // The SQL predicate is the same comparison in integers.
    expect(leaderboardDefinition('sniper').sql.predicate).toBe('(10 * fast_snipes >= 7 * total)');
  });

  it('ranks by the rug rate of its snipes, shrunk: (s_r + 1.05)/(s + 5)', () => {
    const rs = [
      rec('ALL_RUG', { total: 8, fastSnipes: 8, snipedRugged: 8 }), // 9.05/13
      rec('SHY', { total: 8, fastSnipes: 5, snipedRugged: 5 }), // rate 0.625 < 0.70: out
      rec('FEW', { total: 7, fastSnipes: 7, snipedRugged: 7 }), // below min_total: out
      rec('MANY', { total: 100, fastSnipes: 90, snipedRugged: 60 }), // 61.05/95
      rec('CLEAN', { total: 10, fastSnipes: 10, snipedRugged: 0 }), // 1.05/15
      rec('EDGE', { total: 10, fastSnipes: 7, snipedRugged: 7 }), // exactly 0.70: in, 8.05/12
    ];
    const top = rankWallets(rs, 'sniper');
    expect(ids(top)).toEqual(['ALL_RUG', 'EDGE', 'MANY', 'CLEAN']);
    expect(top.map((t) => t.score)).toEqual([9.05 / 13, 8.05 / 12, 61.05 / 95, 1.05 / 15]);
  });

  it('orders wallets with the same snipes by address, whatever else they bought', () => {
    const rs = [rec('SMALL', { total: 8, fastSnipes: 8, snipedRugged: 4 }), rec('BIG', { total: 9, fastSnipes: 8, snipedRugged: 4 })];
    expect(ids(rankWallets(rs, 'sniper'))).toEqual(['BIG', 'SMALL']);
  });

  it('ranks a higher shrunk rate first even over more snipes', () => {
    // P: 4.05/20 = 0.2025, Q: 3.05/15 = 0.2033…
    const rs = [rec('P', { total: 20, fastSnipes: 15, snipedRugged: 3 }), rec('Q', { total: 10, fastSnipes: 10, snipedRugged: 2 })];
    expect(ids(rankWallets(rs, 'sniper'))).toEqual(['Q', 'P']);
  });
});

describe('the service leaderboard (graduates called early)', () => {
  it('ranks by early graduates over every launch bought, shrunk: (g_e + 0.05)/(n + 5); needs one early graduate', () => {
    const rs = [
      rec('CALLER', { total: 10, graduated: 3, earlyGraduated: 3 }), // 3.05/15
      rec('LATE', { total: 10, graduated: 8, earlyGraduated: 0 }), // momentum buyer: never ranked here
      rec('SPRAY', { total: 2000, graduated: 20, earlyGraduated: 20, fastSnipes: 2000 }), // 20.05/2005
      rec('ONE', { total: 8, graduated: 1, earlyGraduated: 1 }), // 1.05/13
    ];
    const top = rankWallets(rs, 'service');
    expect(ids(top)).toEqual(['CALLER', 'ONE', 'SPRAY']);
    expect(top.map((t) => t.score)).toEqual([3.05 / 15, 1.05 / 13, 20.05 / 2005]);
    expect(ids(rankWallets(rs, 'smart'))[0]).toBe('LATE');
  });
});

describe('the leaderboards in SQL', () => {
  const SMART = "(((graduated - rugged)::float8 + '-1'::float8) / (total + '5'::float8))";

  it('walk the index from 8 for min_total ≥ 8, and merge it with the one below 8 for smaller min_total', () => {
    const branch = (range: string) =>
      `SELECT *, ${SMART} AS score FROM wallet_records WHERE ${range} AND total >= $1 AND true ORDER BY ${SMART} DESC, total DESC, wallet LIMIT $2`;
    expect(leaderboardSql('smart', 8)).toBe(branch('total >= 8'));
    expect(leaderboardSql('smart', 50)).toBe(branch('total >= 8'));
    expect(leaderboardSql('smart', 7)).toBe(
      `SELECT * FROM ((${branch('total >= 8')}) UNION ALL (${branch('total >= 1 AND total < 8')})) ranked ORDER BY score DESC, total DESC, wallet LIMIT $2`,
    );
    expect(leaderboardSql('smart', 1)).toBe(leaderboardSql('smart', 7));
    expect(leaderboardSql('sniper', 8)).toContain(
      "ORDER BY ((sniped_rugged::float8 + '1.05'::float8) / (fast_snipes + '5'::float8)) DESC, fast_snipes DESC, wallet",
    );
    expect(leaderboardSql('sniper', 8)).toContain('WHERE total >= 8 AND total >= $1 AND (10 * fast_snipes >= 7 * total)');
    expect(leaderboardSql('service', 3)).toContain('WHERE total >= 1 AND total < 8 AND total >= $1 AND (early_graduated >= 1)');
    expect(() => leaderboardSql('smart', 0)).toThrow(/min_total/);
  });

  it('build two partial indexes per kind (and per smart version) whose order is the query’s', () => {
    expect(leaderboardIndexSql('smart', 'from-min')).toBe(
      `CREATE INDEX CONCURRENTLY wallet_records_smart_v1_from_8 ON wallet_records (${SMART} DESC, total DESC, wallet) WHERE total >= 8 AND true`,
    );
    expect(leaderboardIndexSql('smart', 'below-min')).toBe(
      `CREATE INDEX CONCURRENTLY wallet_records_smart_v1_below_8 ON wallet_records (${SMART} DESC, total DESC, wallet) WHERE total >= 1 AND total < 8 AND true`,
    );
    expect(leaderboardIndexSql('sniper', 'from-min')).toMatch(
      /^CREATE INDEX CONCURRENTLY wallet_records_sniper_v1_from_8 .* DESC, fast_snipes DESC, wallet, total\) WHERE total >= 8 AND \(10 \* fast_snipes >= 7 \* total\)$/,
    );
    expect(leaderboardIndexSql('service', 'below-min')).toMatch(
      / DESC, early_graduated DESC, wallet, total\) WHERE total >= 1 AND total < 8 AND \(early_graduated >= 1\)$/,
    );
    expect(leaderboardIndexSql('smart', 'from-min', defineSmartScoreVersion('smart-v2', 0.003, 0.3, 10))).toMatch(
      /^CREATE INDEX CONCURRENTLY wallet_records_smart_v2_from_8 ON wallet_records \(\(\(\(graduated - rugged\)::float8 \+ '-2.97'::float8\)/,
    );
    expect(SMART_V1.id).toBe('smart-v1');
  });
});

describe('rank and percentile', () => {
  it('are the leaderboard position and the share of ranked wallets at or below it', () => {
    expect(rankAndPercentile(0, 1)).toEqual({ rank: 1, percentile: 100 });
    expect(rankAndPercentile(0, 200)).toEqual({ rank: 1, percentile: 100 });
    expect(rankAndPercentile(199, 200)).toEqual({ rank: 200, percentile: 0.5 });
    expect(rankAndPercentile(49, 200)).toEqual({ rank: 50, percentile: 75.5 });
    expect(() => rankAndPercentile(200, 200)).toThrow();
    expect(() => rankAndPercentile(-1, 200)).toThrow();
    expect(() => rankAndPercentile(0, 0)).toThrow();
  });
});
