import { costLamports, lamportsToSol, realisedPnl, unrealisedPnl, type ExitReason, type PaperPosition } from './paper-position';
import type { PaperConfig, Strategy } from './paper-config';

/**
 * A strategy's figures, aggregated from its position records (pure; the store hands over every position of the
 * strategy). Sums are taken in lamports and converted once.
 *
 * - wins: closed trades with P&L > 0; losses: the other closed trades (a P&L of exactly 0 is not a win), so
 *   wins + losses = closed. win_rate = wins ÷ closed, null with none closed.
 * - avg/sum/best/worst P&L and avg hold over closed trades only; roi = realised P&L ÷ SOL spent on closed trades.
 * - max drawdown: the largest fall of cumulative realised P&L from its running peak (starting at 0), trades taken
 *   in close order. Realised only: unrealised marks are not kept as a series.
 * - unrealised: open positions marked at their last usable quote, sold whole (fees and impact included). An
 *   open position whose quote cannot price a sale counts at cost and is reported in `unpricedOpen`.
 * - cash = bankroll − cost of every position + proceeds of closed ones; equity = cash + marks of open ones.
 * - recent: newest first by the trade's latest event (close, else open).
 */
export type TradeView = {
  strategy: string;
  mint: string;
  state: 'open' | 'closed';
  openedAtMs: number;
  closedAtMs: number | null;
  holdS: number | null;
  scoreAgeS: 30 | 60;
  gradProb: number;
  costSol: number;
  entrySpotPriceSol: number;
  /** Fees included. */
  entryPriceSol: number;
  entrySlippage: number;
  entryFeeSol: number;
  exitVenue: 'curve' | 'dex' | null;
  exitSpotPriceSol: number | null;
  exitPriceSol: number | null;
  exitSlippage: number | null;
  exitFeeSol: number | null;
  exitReason: ExitReason | null;
  /** Realised when closed, unrealised (at the last quote) when open; null for an unpriced open position. */
  pnlSol: number | null;
  returnPct: number | null;
};

export type StrategySummary = {
  strategy: string;
  threshold: number;
  positionSizeSol: number;
  tradesTotal: number;
  tradesOpen: number;
  tradesClosed: number;
  wins: number;
  losses: number;
  winRate: number | null;
  pnl: { sumSol: number; avgSol: number | null; bestSol: number | null; worstSol: number | null };
  roi: number | null;
  maxDrawdownSol: number;
  avgHoldS: number | null;
  bankroll: { initialSol: number; cashSol: number; equitySol: number };
  realisedSol: number;
  unrealisedSol: number;
  unpricedOpen: number;
  recent: TradeView[];
};

export const DEFAULT_RECENT_TRADES = 20;

export function summarizeStrategy(
  strategy: Strategy,
  positions: readonly PaperPosition[],
  c: PaperConfig,
  recentLimit = DEFAULT_RECENT_TRADES,
): StrategySummary {
  const own = positions.map((p) => {
    if (p.strategy !== strategy.id) throw new RangeError(`position ${p.mint} belongs to ${p.strategy}, not ${strategy.id}`);
    return p;
  });
  const closed = own.filter((p) => p.exit).sort((a, b) => a.exit!.atMs - b.exit!.atMs || cmp(a.mint, b.mint));
  const open = own.filter((p) => !p.exit);

  let realised = 0;
  let closedCost = 0;
  let wins = 0;
  let best: number | null = null;
  let worst: number | null = null;
  let holdMs = 0;
  let peak = 0;
  let drawdown = 0;
  for (const p of closed) {
    const pnl = realisedPnl(p)!.pnlLamports;
    realised += pnl;
    closedCost += costLamports(p);
    if (pnl > 0) wins++;
    best = best === null ? pnl : Math.max(best, pnl);
    worst = worst === null ? pnl : Math.min(worst, pnl);
    holdMs += p.exit!.atMs - p.openedAtMs;
    peak = Math.max(peak, realised);
    drawdown = Math.max(drawdown, peak - realised);
  }

  let unrealised = 0;
  let unpriced = 0;
  let cash = c.bankrollLamports;
  for (const p of own) cash -= costLamports(p);
  for (const p of closed) cash += p.exit!.fill.proceedsLamports;
  let openValue = 0;
  for (const p of open) {
    const u = unrealisedPnl(p, c);
    if (u === null) unpriced++;
    unrealised += u?.pnlLamports ?? 0;
    openValue += costLamports(p) + (u?.pnlLamports ?? 0);
  }

  const n = closed.length;
  const recent = [...own]
    .sort((a, b) => latest(b) - latest(a) || cmp(a.mint, b.mint))
    .slice(0, recentLimit)
    .map((p) => tradeView(p, c));
  return {
    strategy: strategy.id,
    threshold: strategy.threshold,
    positionSizeSol: lamportsToSol(c.positionSizeLamports),
    tradesTotal: own.length,
    tradesOpen: open.length,
    tradesClosed: n,
    wins,
    losses: n - wins,
    winRate: n > 0 ? wins / n : null,
    pnl: {
      sumSol: lamportsToSol(realised),
      avgSol: n > 0 ? lamportsToSol(realised) / n : null,
      bestSol: best === null ? null : lamportsToSol(best),
      worstSol: worst === null ? null : lamportsToSol(worst),
    },
    roi: closedCost > 0 ? realised / closedCost : null,
    maxDrawdownSol: lamportsToSol(drawdown),
    avgHoldS: n > 0 ? holdMs / n / 1000 : null,
    bankroll: { initialSol: lamportsToSol(c.bankrollLamports), cashSol: lamportsToSol(cash), equitySol: lamportsToSol(cash + openValue) },
    realisedSol: lamportsToSol(realised),
    unrealisedSol: lamportsToSol(unrealised),
    unpricedOpen: unpriced,
    recent,
  };
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const latest = (p: PaperPosition) => p.exit?.atMs ?? p.openedAtMs;

export function tradeView(p: PaperPosition, c: PaperConfig): TradeView {
  const e = p.entry.fill;
  const x = p.exit;
  const pnl = x ? realisedPnl(p) : unrealisedPnl(p, c);
  return {
    strategy: p.strategy,
    mint: p.mint,
    state: x ? 'closed' : 'open',
    openedAtMs: p.openedAtMs,
    closedAtMs: x?.atMs ?? null,
    holdS: x ? (x.atMs - p.openedAtMs) / 1000 : null,
    scoreAgeS: p.entry.scoreAgeS,
    gradProb: p.entry.gradProb,
    costSol: lamportsToSol(e.solSpentLamports),
    entrySpotPriceSol: e.spotPriceSol,
    entryPriceSol: e.effectivePriceSol,
    entrySlippage: e.slippage,
    entryFeeSol: lamportsToSol(e.feeLamports),
    exitVenue: x?.fill.venue ?? null,
    exitSpotPriceSol: x?.fill.spotPriceSol ?? null,
    exitPriceSol: x?.fill.effectivePriceSol ?? null,
    exitSlippage: x?.fill.slippage ?? null,
    exitFeeSol: x ? lamportsToSol(x.fill.feeLamports) : null,
    exitReason: x?.reason ?? null,
    pnlSol: pnl?.pnlSol ?? null,
    returnPct: pnl?.returnPct ?? null,
  };
}
