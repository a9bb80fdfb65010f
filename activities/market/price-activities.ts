import { ApplicationFailure } from '@temporalio/activity';
import { PriceSourceError, type PriceClient } from '../../clients/jupiter-price-client';
import type { PriceStore } from '../../db/market/price-store';

/** A quote as it crosses the workflow boundary: plain JSON. */
export type PriceQuoteDto = { symbol: 'SOL'; mint: string; usd: number; source: string; fetchedAt: string };

export type PriceDeps = { priceClient: PriceClient; priceStore: PriceStore; sourceName: string; now: () => Date };

export function createPriceActivities(d: PriceDeps) {
  return {
    async fetchNativeCoinPrice(): Promise<PriceQuoteDto> {
      try {
        const q = await d.priceClient.nativeCoinUsd();
        return { ...q, fetchedAt: q.fetchedAt.toISOString() };
      } catch (e) {
        if (e instanceof PriceSourceError && !e.retryable) throw ApplicationFailure.nonRetryable(e.message, 'PriceSourceRejected');
        throw e;
      }
    },

    async storeNativeCoinPrice(q: PriceQuoteDto): Promise<void> {
      await d.priceStore.recordQuote({ ...q, fetchedAt: new Date(q.fetchedAt) });
    },

    async recordNativeCoinPriceFailure(input: { error: string }): Promise<void> {
      await d.priceStore.recordFailure(d.sourceName, d.now(), input.error);
    },
  };
}
export type PriceActivities = ReturnType<typeof createPriceActivities>;
