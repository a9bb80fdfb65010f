import type { PerpsSide, WalletFill } from './perps-types';

/**
 * A wallet's past entries, rebuilt from its fills: one round trip per market from a flat position (or the
 * first fill seen) back to flat, or to a flip ("Long > Short" closes one trip and opens the next).
 *
 * PnL of a trip = Σ closedPnl − Σ fees of its fills. Hyperliquid's `closedPnl` is already the realised PnL
 * against the position's entry price, so a trip whose opening fills are older than the fills we were given
 * (userFills returns the newest 2000) still gets its exact price PnL; only those opening fees are missing.
 * A flip fill's fee is split between the trip it closes and the trip it opens by size.
 */
export type ClosedEntry = {
  market: string;
  side: PerpsSide;
  openedAt: number;
  closedAt: number;
  pnlUsd: number;
  volumeUsd: number;
  fills: number;
  liquidated: boolean;
};

type OpenTrip = { side: PerpsSide; openedAt: number; pnlUsd: number; volumeUsd: number; fills: number; liquidated: boolean };

const EPS = 1e-12;

export function closedEntries(fills: readonly WalletFill[]): { closed: ClosedEntry[]; open: Map<string, OpenTrip> } {
  const sorted = [...fills].sort((a, b) => a.time - b.time);
  const open = new Map<string, OpenTrip>();
  const closed: ClosedEntry[] = [];
  for (const f of sorted) {
    const signed = f.side === 'buy' ? f.size : -f.size;
    const before = f.startPosition;
    const after = before + signed;
    const closing = Math.abs(before) > EPS && Math.sign(before) !== Math.sign(signed) ? Math.min(Math.abs(before), f.size) : 0;
    const closeShare = f.size > 0 ? closing / f.size : 0;
    let trip = open.get(f.market);
    if (closing > 0) {
      // A position we never saw open: its trip starts here, for what the close tells us.
      trip ??= { side: before > 0 ? 'long' : 'short', openedAt: f.time, pnlUsd: 0, volumeUsd: 0, fills: 0, liquidated: false };
      trip.pnlUsd += f.closedPnlUsd - f.feeUsd * closeShare;
      trip.volumeUsd += closing * f.px;
      trip.fills++;
      trip.liquidated ||= f.liquidation;
      if (Math.abs(after) <= EPS || Math.sign(after) !== Math.sign(before)) {
        closed.push({ market: f.market, closedAt: f.time, ...trip });
        open.delete(f.market);
        trip = undefined;
      } else {
        open.set(f.market, trip);
      }
    }
    const opening = f.size - closing;
    if (opening > EPS) {
      trip ??= { side: signed > 0 ? 'long' : 'short', openedAt: f.time, pnlUsd: 0, volumeUsd: 0, fills: 0, liquidated: false };
      trip.pnlUsd += (closing > 0 ? 0 : f.closedPnlUsd) - f.feeUsd * (1 - closeShare);
      trip.volumeUsd += opening * f.px;
      trip.fills++;
      open.set(f.market, trip);
    }
  }
  return { closed, open };
}
