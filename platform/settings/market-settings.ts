import { z } from 'zod';
import { platformSettings } from './platform-settings';
import { defineSettings, port } from './settings';
import { refuseSimulatedInProduction } from './simulated-inputs';

/** Jupiter's public Price API v3: the production price source. */
const JUPITER_PRICE_URL = 'https://lite-api.jup.ag/price/v3';

/**
 * The market: the native-coin price source and refresh, and the market temperature (/api/v1/conditions).
 * PRICE_SOURCE=simulator reads a simulated SOL/USD price served in Jupiter's wire format on loopback
 * (ingest/price-simulator): `npm start` chooses it when every launch feed is the simulator and no price source
 * is configured, so the embedded default shows USD figures and composite signals offline.
 */
export const marketSettings = defineSettings(
  {
    NODE_ENV: platformSettings.env.NODE_ENV,
    DEMO_MODE: platformSettings.env.DEMO_MODE,
    /** Where the SOL/USD price comes from: Jupiter's Price API, or (the offline embedded default) a simulated price served in its wire format on loopback. */
    PRICE_SOURCE: z.enum(['jupiter', 'simulator']).default('jupiter'),
    /** Jupiter Price API v3 base URL. */
    PRICE_SOURCE_URL: z.string().url().default(JUPITER_PRICE_URL),
    /** Native-coin price schedule. */
    PRICE_REFRESH_INTERVAL_S: z.coerce.number().int().min(10).max(3600).default(300),
    /** The simulated price (PRICE_SOURCE=simulator): its loopback port. */
    PRICE_SIMULATOR_PORT: port().default(8548),
    /** The simulated price's seed (the same seed gives the same price path). */
    PRICE_SIMULATOR_SEED: z.coerce.number().int().default(42),
    /** Market temperature: refresh period and the history it needs before publishing. */
    CONDITIONS_REFRESH_S: z.coerce.number().int().min(10).max(3600).default(300),
    /** Market-temperature schedule; complete hours of history needed before it is published. */
    CONDITIONS_MIN_HISTORY_H: z.coerce.number().int().min(1).max(840).default(24),
  },
  (e) => {
    const simulated = e.PRICE_SOURCE === 'simulator';
    if (simulated) refuseSimulatedInProduction(e, 'PRICE_SOURCE', 'simulator');
    return {
      price: {
        // The simulated price answers in Jupiter's wire format, so the same client reads it: only the address changes.
        sourceUrl: simulated ? `http://127.0.0.1:${e.PRICE_SIMULATOR_PORT}/price/v3` : e.PRICE_SOURCE_URL,
        /** Stored beside every quote and shown by /api/native_coin_price. */
        sourceName: simulated ? 'simulated-price' : 'jupiter-price-v3',
        simulated,
        simulator: simulated ? { port: e.PRICE_SIMULATOR_PORT, seed: e.PRICE_SIMULATOR_SEED } : null,
        refreshIntervalS: e.PRICE_REFRESH_INTERVAL_S,
      },
      conditions: { refreshS: e.CONDITIONS_REFRESH_S, minHistoryH: e.CONDITIONS_MIN_HISTORY_H },
    };
  },
);
