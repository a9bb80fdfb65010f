import { z } from 'zod';
import { DEFAULT_TIER_RULES_VERSION, TIER_RULES } from '../../domain/signals/tier-rules';
import { defineSettings } from './settings';

/** The composite signal: which tier rules are live (by version name, never by numbers) and how often the threshold is saved. */
export const signalsSettings = defineSettings(
  {
    /** The composite signal's tier rules, by version name. */
    SIGNAL_TIER_RULES: z
      .string()
      .refine((v) => v in TIER_RULES, { message: `one of ${Object.keys(TIER_RULES).join(', ')}` })
      .default(DEFAULT_TIER_RULES_VERSION),
    /** The threshold sketch is saved at least this often (and reloaded at start): what a crash can lose is re-sampled. */
    SIGNAL_THRESHOLD_SAVE_S: z.coerce.number().int().min(1).max(600).default(30),
    /** How often the Schedule resolves composite predictions whose 24 h horizon has passed. */
    SIGNAL_RESOLVE_EVERY_S: z.coerce.number().int().min(10).max(3600).default(60),
    /** Ingest wakes the live projector's signal evaluation after committed trades at most this often. */
    SIGNAL_WAKE_MIN_MS: z.coerce.number().int().min(20).max(10_000).default(200),
  },
  (e) => ({
    signals: {
      tierRulesVersion: e.SIGNAL_TIER_RULES,
      thresholdSaveS: e.SIGNAL_THRESHOLD_SAVE_S,
      resolveEveryS: e.SIGNAL_RESOLVE_EVERY_S,
      wakeMinSpacingMs: e.SIGNAL_WAKE_MIN_MS,
    },
  }),
);
