import { isPriceStale } from '../market/native-coin';

/**
 * Whether composite crosses can be made now, as /api/health and /api/v1/stats report it: the same price rule as
 * the cross (cross-rules.ts), read from the latest stored SOL/USD quote.
 */
export type WithholdReason = 'native_price_unknown' | 'native_price_stale';
export type CompositeSignalState = { state: 'crossing' | 'withholding'; reason: WithholdReason | null };

export function compositeSignalState(quote: { usd: number; fetchedAtMs: number } | null, nowMs: number, refreshIntervalS: number): CompositeSignalState {
  if (quote === null || !(quote.usd > 0 && Number.isFinite(quote.usd))) return { state: 'withholding', reason: 'native_price_unknown' };
  if (isPriceStale(quote.fetchedAtMs, nowMs, refreshIntervalS)) return { state: 'withholding', reason: 'native_price_stale' };
  return { state: 'crossing', reason: null };
}
