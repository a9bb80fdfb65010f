import type { PaperConfig } from '../../domain/paper/paper-config';
import type { StrategySummary, TradeView } from '../../domain/paper/strategy-summary';
import { iso } from '../http/iso';

/** A trade as openapi `PaperTrade`: prices in SOL per token (entry fees included), slippage as a fraction. */
export const tradeJson = (t: TradeView) => ({
  strategy: t.strategy,
  mint: t.mint,
  state: t.state,
  opened_at: iso(t.openedAtMs)!,
  closed_at: iso(t.closedAtMs),
  hold_s: t.holdS,
  score_age_s: t.scoreAgeS,
  grad_prob: t.gradProb,
  cost_sol: t.costSol,
  entry_spot_price_sol: t.entrySpotPriceSol,
  entry_price_sol: t.entryPriceSol,
  entry_slippage: t.entrySlippage,
  entry_fee_sol: t.entryFeeSol,
  exit_venue: t.exitVenue,
  exit_spot_price_sol: t.exitSpotPriceSol,
  exit_price_sol: t.exitPriceSol,
  exit_slippage: t.exitSlippage,
  exit_fee_sol: t.exitFeeSol,
  exit_reason: t.exitReason,
  pnl_sol: t.pnlSol,
  return_pct: t.returnPct,
});

/** One strategy as openapi `PaperThreshold`: the spec's fields first, then ours. */
export const thresholdJson = (s: StrategySummary) => ({
  threshold: s.threshold,
  position_size_sol: s.positionSizeSol,
  trades_open: s.tradesOpen,
  trades_closed: s.tradesClosed,
  wins: s.wins,
  losses: s.losses,
  win_rate: s.winRate,
  realized_pnl_sol: s.realisedSol,
  unrealized_pnl_sol: s.unrealisedSol,
  roi: s.roi,
  max_drawdown_sol: s.maxDrawdownSol,
  avg_hold_s: s.avgHoldS,
  strategy: s.strategy,
  trades_total: s.tradesTotal,
  pnl: { sum_sol: s.pnl.sumSol, avg_sol: s.pnl.avgSol, best_sol: s.pnl.bestSol, worst_sol: s.pnl.worstSol },
  bankroll: { initial_sol: s.bankroll.initialSol, cash_sol: s.bankroll.cashSol, equity_sol: s.bankroll.equitySol },
  unpriced_open: s.unpricedOpen,
  recent_trades: s.recent.map(tradeJson),
});

export const configJson = (c: PaperConfig, tickMs: number) => ({
  position_size_sol: c.positionSizeLamports / 1e9,
  bankroll_sol: c.bankrollLamports / 1e9,
  take_profit_pct: c.takeProfitBps / 100,
  stop_loss_pct: c.stopLossBps / 100,
  timeout_s: c.timeoutS,
  stale_after_s: c.staleAfterS,
  tick_s: tickMs / 1000,
  curve_fee_bps: c.curveFees.protocolBps + c.curveFees.creatorBps,
  dex_fee_bps: c.dex.feeBps,
  dex_impact_model: c.dex.impact.kind,
});
