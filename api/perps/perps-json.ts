import type { EntryView, PositionView } from '../../db/perps/perps-read-model';
import { horizonStats, type ScopeSums } from '../../domain/perps/win-rate-aggregation';

/** The perps operations' shared JSON pieces (openapi.yaml: PerpsEntry, HorizonWinRate). */
export function entryJson(e: EntryView) {
  return {
    entry_id: e.id,
    exchange: e.exchange,
    market: e.market,
    wallet: e.wallet,
    side: e.side,
    size: e.size,
    price: e.entryPx,
    notional_usd: e.notionalUsd,
    entered_at: e.detectedAt.toISOString(),
    smart_score: e.smartScore,
    smart: e.smart,
    kind: e.kind,
    leverage: e.leverage,
    whale: e.whale,
    wallet_roi_30d: e.walletRoi30d,
    price_at_detection: e.priceAtDetection,
    rule_version: e.ruleVersion,
    entry_rule_version: e.entryRuleVersion,
  };
}

export function winRatesJson(s: ScopeSums) {
  return horizonStats(s).map((h) => ({ horizon: h.horizon, n: h.n, win_rate: h.winRate, mean_move_bps: h.meanMoveBps }));
}

export function positionJson(p: PositionView) {
  return {
    exchange: p.exchange,
    market: p.market,
    side: p.side,
    size: p.size,
    entry_price: p.entryPx,
    notional_usd: p.positionValueUsd,
    unrealized_pnl_usd: p.unrealizedPnlUsd,
    opened_at: p.openedAt.toISOString(),
  };
}
