import type { PerpsSide, WalletFill, WalletSnapshot } from './perps-types';

/**
 * Liquidations of a watched wallet between two snapshots. A position that shrank or vanished was liquidated
 * when either
 * - `fill`: a fill of that market in (prev.at, next.at] is marked as a liquidation (Hyperliquid sets
 *   `liquidation` on such fills and its `dir` names it), or
 * - `price`: no fills were read, and the mark price at the later snapshot is at or beyond the liquidation price
 *   the earlier snapshot showed (long: mark ≤ liqPx·(1 + tolerance); short: mark ≥ liqPx·(1 − tolerance)).
 *   The tolerance (0.5 %) covers the mark moving back a little between the liquidation and the snapshot; a
 *   position closed by hand near its liquidation price is the accepted false positive, and is labelled so.
 */
export const LIQUIDATION_PRICE_TOLERANCE = 0.005;

export type DetectedLiquidation = {
  wallet: string;
  market: string;
  side: PerpsSide;
  /** Base units lost. */
  size: number;
  liquidationPx: number | null;
  markPx: number | null;
  at: number;
  evidence: 'fill' | 'price';
};

export function detectLiquidations(
  prev: WalletSnapshot,
  next: WalletSnapshot,
  marks: Readonly<Record<string, number>>,
  fills: readonly WalletFill[] | null,
): DetectedLiquidation[] {
  const after = new Map(next.positions.map((p) => [p.market, p]));
  const out: DetectedLiquidation[] = [];
  for (const p of prev.positions) {
    const now = after.get(p.market);
    const remaining = now && now.side === p.side ? now.size : 0;
    if (remaining >= p.size) continue;
    const lost = p.size - remaining;
    const base = { wallet: next.wallet, market: p.market, side: p.side, size: lost, liquidationPx: p.liquidationPx, markPx: marks[p.market] ?? null };
    if (fills) {
      const liq = fills.find((f) => f.market === p.market && f.liquidation && f.time > prev.at && f.time <= next.at);
      if (liq) out.push({ ...base, markPx: base.markPx ?? liq.px, at: liq.time, evidence: 'fill' });
      continue;
    }
    const mark = marks[p.market];
    if (p.liquidationPx === null || mark === undefined) continue;
    const crossed =
      p.side === 'long' ? mark <= p.liquidationPx * (1 + LIQUIDATION_PRICE_TOLERANCE) : mark >= p.liquidationPx * (1 - LIQUIDATION_PRICE_TOLERANCE);
    if (crossed) out.push({ ...base, at: next.at, evidence: 'price' });
  }
  return out;
}
