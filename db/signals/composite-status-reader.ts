import { compositeSignalState } from '../../domain/signals/withholding';
import { createPriceStore } from '../market/price-store';
import { createCompositePredictionStore } from './composite-prediction-store';
import type { Db } from '../db-handle';

const DAY_MS = 86_400_000;

/** The composite signal's status (openapi CompositeSignalStatus): the price rule now, and the crosses it withheld in 24 h. */
export function createCompositeStatusReader(handle: Db, o: { nativePriceRefreshS: number }) {
  const prices = createPriceStore(handle);
  const predictions = createCompositePredictionStore(handle);
  return async (now: Date) => {
    const [quote, withheld] = await Promise.all([prices.latestQuote('SOL'), predictions.withheldSince(new Date(now.getTime() - DAY_MS))]);
    const s = compositeSignalState(quote ? { usd: quote.usd, fetchedAtMs: quote.fetchedAt.getTime() } : null, now.getTime(), o.nativePriceRefreshS);
    const count = (reason: string) => withheld.find((w) => w.reason === reason)?.count ?? 0;
    return {
      state: s.state,
      reason: s.reason,
      native_price_fetched_at: quote ? quote.fetchedAt.toISOString() : null,
      withheld_24h: { native_price_unknown: count('native_price_unknown'), native_price_stale: count('native_price_stale') },
    };
  };
}
export type CompositeStatus = Awaited<ReturnType<ReturnType<typeof createCompositeStatusReader>>>;
