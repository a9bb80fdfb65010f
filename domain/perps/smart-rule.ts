import type { WalletRecord } from './wallet-record';

/**
 * Which watched wallets count as smart money, versioned: every entry row stores the version that judged it,
 * and a new version never rewrites old rows (the anchor service's documented and running rules drifted apart).
 *
 * perps-smart-v1: ROI over 30 days ≥ 10 %, at least 10 closed entries, and a win rate ≥ 55 % on them. Ten is
 * the smallest sample where 55 % is more than one lucky trade away from a coin flip (6 of 10); ROI guards
 * against a wallet that wins small and loses big. smart_score = the Wilson 95 % lower bound of the win rate:
 * it ranks 30 of 50 below 60 of 100 — same rate, less evidence — and stays within [0, 1].
 * Whale: an open position (or an entry) worth ≥ 1,000,000 USD, independent of skill.
 */
export type PerpsSmartRule = { id: string; minRoi30d: number; minClosedEntries: number; minWinRate: number; whalePositionUsd: number };

export const PERPS_SMART_V1: PerpsSmartRule = { id: 'perps-smart-v1', minRoi30d: 0.1, minClosedEntries: 10, minWinRate: 0.55, whalePositionUsd: 1_000_000 };

export type SmartVerdict = {
  ruleVersion: string;
  smart: boolean;
  whale: boolean;
  smartScore: number | null;
  unmet: ('roi30d' | 'closedEntries' | 'winRate')[];
};

export function judgeWallet(
  r: Pick<WalletRecord, 'roi30d' | 'closedEntries' | 'wins' | 'winRate' | 'largestPositionUsd'>,
  rule: PerpsSmartRule = PERPS_SMART_V1,
): SmartVerdict {
  const unmet: SmartVerdict['unmet'] = [];
  if (r.roi30d === null || r.roi30d < rule.minRoi30d) unmet.push('roi30d');
  if (r.closedEntries < rule.minClosedEntries) unmet.push('closedEntries');
  if (r.winRate === null || r.winRate < rule.minWinRate) unmet.push('winRate');
  return {
    ruleVersion: rule.id,
    smart: unmet.length === 0,
    whale: isWhalePosition(r.largestPositionUsd, rule),
    smartScore: r.closedEntries > 0 ? wilsonLowerBound(r.wins, r.closedEntries) : null,
    unmet,
  };
}

export function isWhalePosition(positionValueUsd: number, rule: PerpsSmartRule = PERPS_SMART_V1): boolean {
  return positionValueUsd >= rule.whalePositionUsd;
}

/** Wilson score interval's lower bound for `wins` of `n` at 95 % (z = 1.96). */
export function wilsonLowerBound(wins: number, n: number, z = 1.96): number {
  if (n <= 0) return 0;
  const p = wins / n;
  const z2 = z * z;
  const centre = p + z2 / (2 * n);
  const margin = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return Math.max(0, (centre - margin) / (1 + z2 / n));
}
