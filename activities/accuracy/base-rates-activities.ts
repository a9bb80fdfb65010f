import type { BaseRateStore } from '../../db/accuracy/base-rate-store';
import { baseRateCells } from '../../domain/accuracy/base-rates';
import { LABEL_VERSION, RUG_LABEL_VERSION } from '../../domain/launch/outcome-labels';

export type BaseRatesDeps = { baseRateStore: BaseRateStore; baseRatesWindowDays: number; now: () => Date };

export function createBaseRatesActivities(d: BaseRatesDeps) {
  return {
    /**
     * Recomputes the base rates by band over the window of resolved launches ending now, and replaces the projection
     * row. Idempotent: a retry recomputes the same figures from the same rows.
     */
    async projectBaseRates(): Promise<{ launches: number; computedAt: string }> {
      const now = d.now();
      const from = new Date(now.getTime() - d.baseRatesWindowDays * 86_400_000);
      const { counts, window } = await d.baseRateStore.compute(from, now, LABEL_VERSION, RUG_LABEL_VERSION);
      await d.baseRateStore.write({
        computedAt: now,
        windowDays: d.baseRatesWindowDays,
        windowFrom: from,
        windowTo: now,
        labelVersion: LABEL_VERSION,
        rugLabelVersion: RUG_LABEL_VERSION,
        window,
        cells: baseRateCells(counts),
      });
      return { launches: window.launches, computedAt: now.toISOString() };
    },
  };
}
export type BaseRatesActivities = ReturnType<typeof createBaseRatesActivities>;
