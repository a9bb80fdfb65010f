import { costLamports, liquidate, pnlOf, type ExitFill, type ExitReason, type PaperPosition, type Pnl, type Quote, type SeenQuote } from './paper-position';
import type { PaperConfig } from './paper-config';

/**
 * When an open position closes. Each tick brings the time and, when the price source answered, a quote.
 *
 * - Exits are judged on what the position would actually fetch: the whole position sold at the quote (curve math
 *   and fees before graduation, DEX price, modelled impact and fee after), against the SOL it cost. So a
 *   take-profit trade really is +20% after every cost, and the reported P&L is the one the rule saw.
 * - With a usable quote: stop loss when P&L ≤ −stopLoss, take profit when P&L ≥ +takeProfit, else timeout when
 *   the position is at least timeoutS old; the fill is this quote's. A price limit reached at the timeout tick is
 *   reported as the price limit, since it is what the price did.
 * - Without one (the source is down, the DEX price has not arrived after graduation, or the curve shows complete
 *   and can no longer price a sale): `stale_price` once staleAfterS have passed since the last usable quote,
 *   else `timeout` when due; either fill is the last usable quote's, and the exit records when that quote was
 *   seen. The last usable quote is the best evidence there is; the reason tells a reader it is old.
 * - Every limit is inclusive: exactly +20%, −25%, 30 min or 5 min closes. Thresholds are compared in integer
 *   lamports (P&L × 10,000 against bps × cost), so no rounding decides a boundary.
 * - A close happens at the first tick at or after its trigger; how late ticks run is the integration's figure.
 */
export type Tick = { atMs: number; quote: Quote | null };

export type ExitDecision =
  | { action: 'hold'; lastQuote: SeenQuote; /** At the last usable quote; null if it cannot price a sale. */ mark: Pnl | null }
  | { action: 'close'; reason: ExitReason; atMs: number; fill: ExitFill; quoteAtMs: number; pnl: Pnl };

export function evaluateExit(p: PaperPosition, tick: Tick, c: PaperConfig): ExitDecision {
  if (p.exit) throw new RangeError(`position ${p.strategy}/${p.mint} is already closed`);
  if (!Number.isFinite(tick.atMs) || tick.atMs < p.lastQuote.atMs) throw new RangeError('ticks must not go back in time');
  const cost = costLamports(p);
  const tokens = p.entry.fill.tokensRaw;
  const timedOut = tick.atMs - p.openedAtMs >= c.timeoutS * 1000;
  const close = (reason: ExitReason, fill: ExitFill, quoteAtMs: number): ExitDecision => ({
    action: 'close',
    reason,
    atMs: tick.atMs,
    fill,
    quoteAtMs,
    pnl: pnlOf(cost, fill.proceedsLamports),
  });

  const fresh = tick.quote ? liquidate(tokens, tick.quote, c) : null;
  if (fresh) {
    const pnl = BigInt(fresh.proceedsLamports - cost) * 10_000n;
    if (pnl <= -BigInt(c.stopLossBps) * BigInt(cost)) return close('stop_loss', fresh, tick.atMs);
    if (pnl >= BigInt(c.takeProfitBps) * BigInt(cost)) return close('take_profit', fresh, tick.atMs);
    if (timedOut) return close('timeout', fresh, tick.atMs);
    return { action: 'hold', lastQuote: { atMs: tick.atMs, quote: tick.quote! }, mark: pnlOf(cost, fresh.proceedsLamports) };
  }

  const last = liquidate(tokens, p.lastQuote.quote, c);
  const stale = tick.atMs - p.lastQuote.atMs >= c.staleAfterS * 1000;
  if (last && stale) return close('stale_price', last, p.lastQuote.atMs);
  if (last && timedOut) return close('timeout', last, p.lastQuote.atMs);
  if (!last) throw new RangeError(`position ${p.strategy}/${p.mint} holds a last quote that cannot price a sale`);
  return { action: 'hold', lastQuote: p.lastQuote, mark: pnlOf(cost, last.proceedsLamports) };
}

/** The position with a decision applied: the new last quote on hold, the exit on close. */
export function applyExitDecision(p: PaperPosition, d: ExitDecision): PaperPosition {
  if (d.action === 'hold') return { ...p, lastQuote: d.lastQuote };
  return { ...p, exit: { atMs: d.atMs, reason: d.reason, fill: d.fill, quoteAtMs: d.quoteAtMs } };
}
