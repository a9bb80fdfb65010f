import { ActivityFailure, ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import type { PriceActivities } from '../../activities/market/price-activities';
import type { PriceRefreshResult } from './native-coin-price-contract';

// A few quick retries ride out a blip; a longer outage is recorded and the next scheduled run tries again,
// while the API keeps serving the last good price marked stale.
const fetcher = proxyActivities<PriceActivities>({
  startToCloseTimeout: '15 seconds',
  retry: { maximumAttempts: 4, initialInterval: '1 second', backoffCoefficient: 2 },
});
const writer = proxyActivities<PriceActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '10 seconds', maximumAttempts: 10 },
});

/** Refreshes the cached native-coin price; started every 5 minutes by a Temporal Schedule. */
export async function refreshNativeCoinPrice(): Promise<PriceRefreshResult> {
  try {
    const quote = await fetcher.fetchNativeCoinPrice();
    await writer.storeNativeCoinPrice(quote);
    return { ok: true, usd: quote.usd };
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    const cause = err.cause;
    const error = cause instanceof ApplicationFailure || cause instanceof Error ? cause.message : String(err.message);
    await writer.recordNativeCoinPriceFailure({ error });
    return { ok: false, error };
  }
}
