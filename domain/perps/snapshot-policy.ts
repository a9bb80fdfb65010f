import type { WalletSnapshot } from './perps-types';

/**
 * When a watched wallet is snapshotted again, and when its fills are read again (its record: realised PnL,
 * ROI over 30 days, win rate). Snapshots are cheap (weight 2); fills cost 20 plus one per 20 fills, so they are
 * read only when something was realised: at the first snapshot, when a position shrank, closed or flipped since
 * the previous snapshot (no more often than `minIntervalS`), and at least daily so ROI's 30-day window moves on.
 */
export type SnapshotCadence = { hotS: number; coldS: number };

/** Smart and whale wallets are watched closely; the rest of the watched set at the cold cadence. */
export function nextSnapshotDelayS(hot: boolean, c: SnapshotCadence): number {
  return hot ? c.hotS : c.coldS;
}

export const FILLS_STALE_AFTER_S = 24 * 3600;

/** Did any position shrink, close or flip between the two snapshots (realised PnL, or a liquidation)? */
export function somethingRealised(prev: WalletSnapshot | null, next: WalletSnapshot): boolean {
  if (!prev) return false;
  const after = new Map(next.positions.map((p) => [p.market, p]));
  return prev.positions.some((p) => {
    const now = after.get(p.market);
    return !now || now.side !== p.side || now.size < p.size;
  });
}

export function fillsRefreshDue(o: {
  prev: WalletSnapshot | null;
  next: WalletSnapshot;
  lastRefreshAt: number | null;
  now: number;
  minIntervalS: number;
}): boolean {
  if (o.lastRefreshAt === null) return true;
  const age = o.now - o.lastRefreshAt;
  if (age >= FILLS_STALE_AFTER_S * 1000) return true;
  return somethingRealised(o.prev, o.next) && age >= o.minIntervalS * 1000;
}

/**
 * How many wallets one sweep may plan to snapshot: its share of the weight budget over the sweep's period,
 * at the snapshot's weight (2). The budget itself enforces the limit; this keeps a sweep within its period.
 */
export function walletsPerSweep(weightPerMinute: number, share: number, sweepS: number, weightPerSnapshot = 2): number {
  return Math.max(1, Math.floor((weightPerMinute * share * sweepS) / 60 / weightPerSnapshot));
}
