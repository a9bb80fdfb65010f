import { createMarketConditionsStore } from '../../db/market/market-conditions-store';
import { createPriceStore } from '../../db/market/price-store';
import { defineApiArea } from '../api-area';
import { conditionsRoutes } from './conditions-routes';
import { nativeCoinPriceRoutes } from './native-coin-price-routes';

export const marketApi = defineApiArea({
  name: 'market',
  deps: ({ cfg, db, now, keyedReads }) => ({
    priceStore: createPriceStore(db),
    refreshIntervalS: cfg.price.refreshIntervalS,
    marketConditionsStore: createMarketConditionsStore(db),
    conditionsRefreshS: cfg.conditions.refreshS,
    conditionsMinHistoryH: cfg.conditions.minHistoryH,
    now,
    readCacheTtlMs: cfg.api.readCacheTtlMs,
    keyedReads,
  }),
  parts: (d) => ({ routes: [nativeCoinPriceRoutes(d), conditionsRoutes(d)] }),
});
