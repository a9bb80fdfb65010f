import { createJupiterPriceClient } from '../../clients/jupiter-price-client';
import { createMarketConditionsStore } from '../../db/market/market-conditions-store';
import { createPriceStore } from '../../db/market/price-store';
import { defineActivityArea, type WorkerContext } from '../activity-area';
import { createMarketConditionsActivities } from './market-conditions-activities';
import { createPriceActivities } from './price-activities';

export const marketActivities = defineActivityArea({
  name: 'market',
  deps: ({ cfg, db, now }: Pick<WorkerContext, 'cfg' | 'db' | 'now'>) => ({
    priceClient: createJupiterPriceClient(cfg.price.sourceUrl, { source: cfg.price.sourceName }),
    priceStore: createPriceStore(db),
    sourceName: cfg.price.sourceName,
    marketConditionsStore: createMarketConditionsStore(db),
    conditionsMinHistoryH: cfg.conditions.minHistoryH,
    now,
  }),
  activities: (d) => ({ ...createPriceActivities(d), ...createMarketConditionsActivities(d) }),
});
