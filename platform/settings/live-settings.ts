import { z } from 'zod';
import { defineSettings } from './settings';

/** The live tick: the tracked mints' window, the list's size, how often it is refreshed, and when it counts as stale. */
export const liveSettings = defineSettings(
  {
    LIVE_WINDOW_S: z.coerce.number().int().min(60).max(86_400).default(300),
    LIVE_MAX_ENTRIES: z.coerce.number().int().min(10).max(5000).default(500),
    LIVE_REFRESH_MS: z.coerce.number().int().min(250).max(60_000).default(2000),
    /** A live snapshot older than this (beyond its promised delay) is served marked stale and turns /api/health degraded. */
    LIVE_STALE_AFTER_S: z.coerce.number().int().min(5).max(3600).default(20),
  },
  (e) => ({
    live: {
      windowS: e.LIVE_WINDOW_S,
      maxEntries: e.LIVE_MAX_ENTRIES,
      refreshMs: e.LIVE_REFRESH_MS,
      staleAfterS: e.LIVE_STALE_AFTER_S,
    },
  }),
);
