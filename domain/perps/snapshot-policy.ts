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

/** Snapshots per second the sweep's share of the weight budget pays for (each snapshot weighs 2). */
export function snapshotCapacityPerS(weightPerMinute: number, share: number, weightPerSnapshot = 2): number {
  return (weightPerMinute * share) / 60 / weightPerSnapshot;
}

export type BudgetedCadence = SnapshotCadence & { fits: boolean };

/**
 * The cadence the budget can keep for the watched set, instead of one it cannot: with `hot` wallets every hotS and
 * `cold` every coldS the sweep needs hot/hotS + cold/coldS snapshots a second. When that exceeds the capacity
 * (kept at `headroom` of it for pokes and retries), the cold cadence is stretched first, so smart and whale wallets
 * keep theirs; when the hot wallets alone exceed it, they get three quarters of it and the cold ones the rest.
 * Without this every wallet falls equally behind, the smart ones included (the due queue is oldest-first).
 */
export function budgetedCadence(mix: { hot: number; cold: number }, configured: SnapshotCadence, capacityPerS: number, headroom = 0.9): BudgetedCadence {
  const cap = capacityPerS * headroom;
  const needHot = mix.hot / configured.hotS;
  if (needHot + mix.cold / configured.coldS <= cap) return { ...configured, fits: true };
  if (mix.cold === 0) return { hotS: Math.ceil(mix.hot / cap), coldS: configured.coldS, fits: false };
  if (needHot <= cap * 0.75) return { hotS: configured.hotS, coldS: Math.max(configured.coldS, Math.ceil(mix.cold / (cap - needHot))), fits: false };
  return {
    hotS: Math.max(configured.hotS, Math.ceil(mix.hot / (cap * 0.75))),
    coldS: Math.max(configured.coldS, Math.ceil(mix.cold / (cap * 0.25))),
    fits: false,
  };
}
