import { z } from 'zod';
import { defineSettings } from './settings';

/** The mint pipeline: the live list's window, size, refresh and staleness; the models' refit period and corpus. */
export const mintSettings = defineSettings(
  {
    /** Live list: tracked age, size, refresh period. */
    LIVE_WINDOW_S: z.coerce.number().int().min(60).max(86_400).default(300),
    /** Live list: tracked age, size, refresh period. */
    LIVE_MAX_ENTRIES: z.coerce.number().int().min(10).max(5000).default(500),
    /** Live list: tracked age, size, refresh period. */
    LIVE_REFRESH_MS: z.coerce.number().int().min(250).max(60_000).default(2000),
    /** A live snapshot older than this (beyond its promised delay) is served marked stale and turns /api/health degraded. */
    LIVE_STALE_AFTER_S: z.coerce.number().int().min(5).max(3600).default(20),
    /** Background refit of every k-NN model (grad, rug, runner, survival); newest resolved mints per age they use. */
    MODEL_REFIT_EVERY_S: z.coerce.number().int().min(10).max(86_400).default(600),
    /** Background refit of every k-NN model (grad, rug, runner, survival); newest resolved mints per age they use. */
    CORPUS_LIMIT: z.coerce.number().int().min(100).max(5_000_000).default(200_000),
  },
  (e) => ({
    mint: {
      liveWindowS: e.LIVE_WINDOW_S,
      liveMaxEntries: e.LIVE_MAX_ENTRIES,
      liveRefreshMs: e.LIVE_REFRESH_MS,
      liveStaleAfterS: e.LIVE_STALE_AFTER_S,
      modelRefitEveryS: e.MODEL_REFIT_EVERY_S,
      corpusLimit: e.CORPUS_LIMIT,
    },
  }),
);
