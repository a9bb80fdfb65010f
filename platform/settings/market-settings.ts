import { z } from 'zod';
import { defineSettings } from './settings';

/** The market: the native-coin price source and refresh, and the market temperature (/api/v1/conditions). */
export const marketSettings = defineSettings(
  {
    /** Jupiter Price API v3 base URL. */
    PRICE_SOURCE_URL: z.string().url().default('https://lite-api.jup.ag/price/v3'),
    /** Native-coin price schedule. */
    PRICE_REFRESH_INTERVAL_S: z.coerce.number().int().min(10).max(3600).default(300),
    /** Market temperature: refresh period and the history it needs before publishing. */
    CONDITIONS_REFRESH_S: z.coerce.number().int().min(10).max(3600).default(300),
    /** Market-temperature schedule; complete hours of history needed before it is published. */
    CONDITIONS_MIN_HISTORY_H: z.coerce.number().int().min(1).max(840).default(24),
  },
  (e) => ({
    price: { sourceUrl: e.PRICE_SOURCE_URL, refreshIntervalS: e.PRICE_REFRESH_INTERVAL_S },
    conditions: { refreshS: e.CONDITIONS_REFRESH_S, minHistoryH: e.CONDITIONS_MIN_HISTORY_H },
  }),
);
