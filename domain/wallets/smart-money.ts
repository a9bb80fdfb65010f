import {
  CURRENT_SMART_SCORE_VERSION,
  DEFAULT_SMART_CRITERIA,
  isSmartWallet,
  publishedSmartScore,
  type SmartCriteria,
  type SmartScoreVersion,
} from './smart-score';
import type { SmartMoney, TopBuyerRef } from '../live/mint-smart-money';
import { redactWallet } from './wallet-address';
import type { WalletCounts } from './wallet-record';

/**
 * Smart money on a mint: how many of its current top buyers are smart wallets (`smart_money_in`), and each top
 * buyer's published smart_score. Top buyers come from the mint's tape under their FULL addresses and are
 * looked up by them, so a prefix shared with another wallet can never lend a buyer someone else's record; what
 * leaves this function names wallets by prefix only.
 */
export function smartMoneyOnMint(
  topBuyers: readonly TopBuyerRef[],
  records: ReadonlyMap<string, Pick<WalletCounts, 'total' | 'graduated' | 'rugged'>>,
  v: SmartScoreVersion = CURRENT_SMART_SCORE_VERSION,
  c: SmartCriteria = DEFAULT_SMART_CRITERIA,
): SmartMoney {
  const seen = new Set<string>();
  const buyers = topBuyers.map((b) => {
    if (seen.has(b.wallet)) throw new RangeError(`top buyer ${redactWallet(b.wallet)} listed twice`);
    seen.add(b.wallet);
    const r = records.get(b.wallet);
    return {
      walletPrefix: redactWallet(b.wallet),
      solIn: b.solIn,
      // Unknown (never resolved a launch) and below the minimum sample both publish null.
      smartScore: r ? publishedSmartScore(r, v, c) : null,
      total: r ? r.total : null,
      smart: r ? isSmartWallet(r, v, c) : false,
    };
  });
  return { smartMoneyIn: buyers.filter((b) => b.smart).length, buyers, scoreVersion: v.id };
}

/**
 * `/api/v1/smart_money_active`: live mints with at least `minSmart` smart wallets among their top buyers,
 * by count descending, ties by grad_prob descending with nulls last, then by mint so the order is total.
 */
export function smartMoneyActive<T extends { mint: string; gradProb: number | null; smartMoneyIn: number }>(
  mints: readonly T[],
  o: { minSmart: number; limit: number },
): T[] {
  if (!(Number.isInteger(o.minSmart) && o.minSmart >= 1)) throw new RangeError(`min_smart must be an integer ≥ 1, got ${o.minSmart}`);
  const byProb = (a: number | null, b: number | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : b - a);
  return mints
    .filter((m) => m.smartMoneyIn >= o.minSmart)
    .sort((a, b) => b.smartMoneyIn - a.smartMoneyIn || byProb(a.gradProb, b.gradProb) || (a.mint < b.mint ? -1 : a.mint > b.mint ? 1 : 0))
    .slice(0, o.limit);
}
