import { z } from 'zod';
import { defineSettings } from './settings';

/**
 * The pre-registered verdict's hourly evaluator. `VERDICT_T0_OVERRIDE` moves the window's start for tests and
 * demonstrations only: the registration's T0 is in its document, and a verdict evaluated from another T0 says so
 * (its `window_start`). Production leaves it unset.
 */
export const verdictSettings = defineSettings(
  {
    /** Period of the verdict evaluator; a T0 other than the registration's (tests and demonstrations only). */
    VERDICT_INTERVAL_S: z.coerce.number().int().min(10).max(86_400).default(3_600),
    /** Period of the verdict evaluator; a T0 other than the registration's (tests and demonstrations only). */
    VERDICT_T0_OVERRIDE: z.iso.datetime({ offset: true }).optional(),
  },
  (e) => ({ verdict: { intervalS: e.VERDICT_INTERVAL_S, t0Override: e.VERDICT_T0_OVERRIDE ? new Date(e.VERDICT_T0_OVERRIDE) : null } }),
);
