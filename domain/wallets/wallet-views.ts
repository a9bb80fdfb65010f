import { DEFAULT_MIN_TOTAL, leaderboardDefinition, type LeaderboardKind, type RankedWallet } from './leaderboards';
import { CURRENT_SMART_SCORE_VERSION, DEFAULT_SMART_CRITERIA, publishedSmartScore, type SmartCriteria, type SmartScoreVersion } from './smart-score';
import type { SmartMoney } from '../live/mint-smart-money';
import { redactWallet, type WalletKey } from './wallet-address';
import { recordRates, type WalletRecord } from './wallet-record';

/**
 * The wallet operations' bodies (openapi WalletLookup, WalletRecord, WalletVerification, Leaderboard,
 * SmartMoneyMint), with the privacy rule applied in one place: `wallet` (the full address) appears only where the
 * caller named that very address; everywhere else a wallet is its 12-character prefix.
 */
const r6 = (x: number) => Math.round(x * 1e6) / 1e6;
const r6n = (x: number | null) => (x === null ? null : r6(x));
const iso = (d: Date | null, what: string) => {
  // A record exists only once a contribution was applied, and every contribution has buy times.
  if (d === null) throw new RangeError(`record without ${what}`);
  return d.toISOString();
};

/** The wallet's own launches as a creator: all of them, the resolved ones, and those whose 24 h peak reached 5×. */
export type CreatorCounts = { nLaunches: number; nResolved: number; n5x: number };
export type WalletViewOptions = {
  /** The caller sent this exact full address (a keyed or verify lookup), so it may be echoed. */
  revealAddress: boolean;
  /** Position on the smart leaderboard at the default min_total; null when unranked. */
  rank: { rank: number; percentile: number } | null;
  /** The wallet's own launches as a creator (the `creators` table), when it created any. */
  creator: CreatorCounts | null;
  updatedAt: Date;
  smart?: SmartScoreVersion;
  criteria?: SmartCriteria;
};

/** `GET /api/v1/wallet/{address}` and each match of `GET /api/wallet/{short}`. */
export function walletRecordView(r: WalletRecord, o: WalletViewOptions) {
  const rates = recordRates(r);
  const v = o.smart ?? CURRENT_SMART_SCORE_VERSION;
  const score = publishedSmartScore(r, v, o.criteria ?? DEFAULT_SMART_CRITERIA);
  return {
    ...(o.revealAddress ? { wallet: r.wallet } : {}),
    wallet_prefix: redactWallet(r.wallet),
    total: r.total,
    graduations: r.graduated,
    runners: r.ran,
    mids: r.mid,
    rugs: r.rugged,
    graduation_rate: r6n(rates.graduationRate),
    runner_rate: r6n(rates.runnerRate),
    rug_rate: r6n(rates.rugRate),
    smart_score: score,
    smart_score_version: v.id,
    rank: score === null ? null : (o.rank?.rank ?? null),
    percentile: score === null || o.rank === null ? null : r6(o.rank.percentile),
    sniper_rug_rate: r6n(rates.sniperRugRate),
    fast_snipes: r.fastSnipes,
    fast_snipe_rate: r6(rates.fastSnipeRate),
    early_graduations: r.earlyGraduated,
    total_invested_sol: r6(rates.totalInvestedSol),
    avg_buy_sol: r6n(rates.avgBuySol),
    launches: o.creator?.nLaunches ?? 0,
    launches_rate_5x: o.creator && o.creator.nResolved > 0 ? r6(o.creator.n5x / o.creator.nResolved) : null,
    first_seen_at: iso(r.firstSeenAt, 'first_seen_at'),
    last_seen_at: iso(r.lastSeenAt, 'last_seen_at'),
    updated_at: o.updatedAt.toISOString(),
  };
}

export type WalletMatch = { record: WalletRecord; rank: WalletViewOptions['rank']; creator: CreatorCounts | null; updatedAt: Date };

/**
 * `GET /api/v1/wallet/{address}` and `GET /api/wallet/{short}`: the wallets a key selects (selectByKey), as a list,
 * so a prefix shared by two indexed wallets answers with both. A full address selects that wallet or none and is
 * echoed (the caller sent it); a prefix never reveals the addresses behind it. An empty list is `found: false`:
 * a well-formed key no indexed wallet matches (it never bought a resolved launch) is an answer, not an error.
 */
export function walletLookupView(key: WalletKey, matches: readonly WalletMatch[], o: { smart?: SmartScoreVersion; criteria?: SmartCriteria } = {}) {
  for (const m of matches) {
    const ok = key.kind === 'address' ? m.record.wallet === key.address : m.record.wallet.startsWith(key.prefix);
    if (!ok) throw new RangeError(`${redactWallet(m.record.wallet)} does not match ${key.prefix}`);
  }
  const reveal = key.kind === 'address';
  return {
    found: matches.length > 0,
    query: key.kind,
    ...(key.kind === 'address' ? { wallet: key.address } : {}),
    wallet_prefix: key.prefix,
    count: matches.length,
    smart_score_version: (o.smart ?? CURRENT_SMART_SCORE_VERSION).id,
    wallets: matches.map((m) =>
      walletRecordView(m.record, { revealAddress: reveal, rank: m.rank, creator: m.creator, updatedAt: m.updatedAt, smart: o.smart, criteria: o.criteria }),
    ),
  };
}

/**
 * `GET /api/verify/{wallet}`: observed stats only; never a score, rank, percentile or comparison. The full address
 * only when the caller sent it (`revealAddress`, the default), as everywhere else.
 */
export function walletVerificationView(r: WalletRecord, verifiedAt: Date, o: { revealAddress?: boolean } = {}) {
  const rates = recordRates(r);
  return {
    ...(o.revealAddress === false ? {} : { wallet: r.wallet }),
    wallet_prefix: redactWallet(r.wallet),
    total: r.total,
    graduations: r.graduated,
    runners: r.ran,
    rugs: r.rugged,
    fast_snipe_rate: r6(rates.fastSnipeRate),
    total_invested_sol: r6(rates.totalInvestedSol),
    first_seen_at: iso(r.firstSeenAt, 'first_seen_at'),
    last_seen_at: iso(r.lastSeenAt, 'last_seen_at'),
    verified_at: verifiedAt.toISOString(),
  };
}

/**
 * `GET /api/verify/{wallet}` by a 12-character prefix (how the leaderboards show wallets): every indexed wallet with
 * that prefix, as `/api/wallet/{short}` answers a shared prefix, and no full address.
 */
export function walletVerificationMatchesView(prefix: string, records: readonly WalletRecord[], verifiedAt: Date) {
  return {
    query: 'prefix' as const,
    wallet_prefix: prefix,
    count: records.length,
    wallets: records.map((r) => walletVerificationView(r, verifiedAt, { revealAddress: false })),
  };
}

/** `GET /api/v1/wallets/leaderboard`: the ranked wallets, by prefix. */
export function leaderboardView(
  kind: LeaderboardKind,
  ranked: readonly RankedWallet<WalletRecord>[],
  o: { minTotal?: number; generatedAt: Date; smart?: SmartScoreVersion; criteria?: SmartCriteria },
) {
  const smart = o.smart ?? CURRENT_SMART_SCORE_VERSION;
  const d = leaderboardDefinition(kind, smart);
  return {
    kind,
    score_version: d.version,
    min_total: o.minTotal ?? DEFAULT_MIN_TOTAL,
    generated_at: o.generatedAt.toISOString(),
    count: ranked.length,
    wallets: ranked.map(({ rank, score, record: r }) => {
      const rates = recordRates(r);
      return {
        rank,
        wallet_prefix: redactWallet(r.wallet),
        score,
        smart_score: publishedSmartScore(r, smart, o.criteria ?? DEFAULT_SMART_CRITERIA),
        total: r.total,
        graduations: r.graduated,
        runners: r.ran,
        rugs: r.rugged,
        graduation_rate: r6(rates.graduationRate ?? 0),
        rug_rate: r6(rates.rugRate ?? 0),
        sniper_rug_rate: r6n(rates.sniperRugRate),
        fast_snipe_rate: r6(rates.fastSnipeRate),
        early_graduations: r.earlyGraduated,
        last_seen_at: iso(r.lastSeenAt, 'last_seen_at'),
      };
    }),
  };
}

/** The fields smart money adds to an enriched mint (`smart_money_in`) and to a SmartMoneyMint. */
export function smartMoneyFields(m: SmartMoney) {
  const smart = m.buyers.filter((b) => b.smart);
  return {
    smart_money_in: m.smartMoneyIn,
    smart_wallet_count: m.smartMoneyIn,
    smart_wallets: smart.map((b) => ({ wallet_prefix: b.walletPrefix, smart_score: b.smartScore!, total: b.total!, sol_in: r6(b.solIn) })),
  };
}
