import { z } from 'zod';
import { defineSettings } from './settings';

/** The accuracy page: recompute period, and how many days of resolved forward predictions it covers; the gate validation's period. */
export const accuracySettings = defineSettings(
  {
    /** Accuracy page recompute schedule; days of resolved forward predictions it covers. */
    ACCURACY_REFRESH_S: z.coerce.number().int().min(10).max(86_400).default(300),
    /** Accuracy page recompute schedule; days of resolved forward predictions it covers. */
    ACCURACY_WINDOW_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
    /** Recompute period of the base rates by band (GET /api/base_rates), in seconds. */
    BASE_RATES_REFRESH_S: z.coerce.number().int().min(10).max(86_400).default(300),
    /** Days of resolved launches the base rates by band cover (by resolution time, up to the recompute). */
    BASE_RATES_WINDOW_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
    /** Period of the survival gate's validation run (one stored run per UTC hour). */
    GATE_VALIDATION_INTERVAL_S: z.coerce.number().int().min(10).max(86_400).default(3_600),
    /** How often the shadow promotion rule judges the challengers (one decision per challenger per UTC hour at most). */
    MODEL_PROMOTION_INTERVAL_S: z.coerce.number().int().min(10).max(86_400).default(3_600),
  },
  (e) => ({
    accuracy: {
      refreshIntervalS: e.ACCURACY_REFRESH_S,
      windowDays: e.ACCURACY_WINDOW_DAYS,
      baseRatesRefreshS: e.BASE_RATES_REFRESH_S,
      baseRatesWindowDays: e.BASE_RATES_WINDOW_DAYS,
      gateValidationIntervalS: e.GATE_VALIDATION_INTERVAL_S,
      promotionIntervalS: e.MODEL_PROMOTION_INTERVAL_S,
    },
  }),
);
