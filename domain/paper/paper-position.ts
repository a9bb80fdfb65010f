import { sellOnCurve, type CurveBuy, type CurveReserves, type CurveSell } from './curve-fill';
import { sellOnDex, type DexSell } from './dex-fill';
import type { PaperConfig, StrategyId } from './paper-config';

/**
 * One paper position: plain JSON (a Temporal workflow's state and a Postgres row), amounts in lamports and raw
 * token units. A position is opened by entry-rules.ts and closed by exit-rules.ts; nothing else changes it but
 * the last quote it has seen.
 */

/** A price as a source gave it: the curve's reserves before graduation, a DEX price (SOL per token) after. */
export type Quote = { kind: 'curve'; reserves: CurveReserves } | { kind: 'dex'; priceSol: number };
export type SeenQuote = { atMs: number; quote: Quote };

export type ExitReason = 'take_profit' | 'stop_loss' | 'timeout' | 'stale_price';
export type ExitFill = CurveSell | DexSell;

export type PositionEntry = {
  /** The score that triggered the entry. */
  scoreAgeS: 30 | 60;
  gradProb: number;
  fill: CurveBuy;
};

export type PositionExit = {
  atMs: number;
  reason: ExitReason;
  fill: ExitFill;
  /** When the quote the fill is priced at was seen (earlier than atMs for a stale or price-less close). */
  quoteAtMs: number;
};

export type PaperPosition = {
  strategy: StrategyId;
  mint: string;
  openedAtMs: number;
  entry: PositionEntry;
  /** The last usable quote: the entry's own reserves until a tick brings a newer one. */
  lastQuote: SeenQuote;
  exit: PositionExit | null;
};

export const positionKey = (strategy: StrategyId, mint: string) => `paper:${strategy}:${mint}`;
export const costLamports = (p: PaperPosition) => p.entry.fill.solSpentLamports;

/**
 * What selling the whole position at this quote would return, or null when the quote cannot price a sale (a
 * completed curve takes no trades; the DEX price has not arrived yet).
 */
export function liquidate(tokensRaw: number, quote: Quote, c: PaperConfig): ExitFill | null {
  if (quote.kind === 'dex') return sellOnDex(tokensRaw, quote.priceSol, c.dex);
  const s = sellOnCurve(quote.reserves, tokensRaw, c.curveFees);
  return s.ok ? s : null;
}

export type Pnl = { pnlLamports: number; pnlSol: number; /** P&L ÷ SOL spent. */ returnPct: number };

export function pnlOf(costLamportsSpent: number, proceedsLamports: number): Pnl {
  if (!(costLamportsSpent > 0)) throw new RangeError(`a position's cost must be positive, got ${costLamportsSpent}`);
  const pnlLamports = proceedsLamports - costLamportsSpent;
  return { pnlLamports, pnlSol: lamportsToSol(pnlLamports), returnPct: pnlLamports / costLamportsSpent };
}

/** Realised P&L of a closed position, null while open. Win = P&L > 0. */
export function realisedPnl(p: PaperPosition): Pnl | null {
  return p.exit ? pnlOf(costLamports(p), p.exit.fill.proceedsLamports) : null;
}

/** Unrealised P&L of an open position at its last quote; null when closed or when that quote cannot price a sale. */
export function unrealisedPnl(p: PaperPosition, c: PaperConfig): Pnl | null {
  if (p.exit) return null;
  const fill = liquidate(p.entry.fill.tokensRaw, p.lastQuote.quote, c);
  return fill ? pnlOf(costLamports(p), fill.proceedsLamports) : null;
}

/** Exact decimal SOL for reporting; sums are taken in lamports first. */
export const lamportsToSol = (lamports: number) => lamports / 1e9;
