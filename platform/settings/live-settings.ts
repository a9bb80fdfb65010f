import { z } from 'zod';
import { defineSettings } from './settings';

/** The live tick: the tracked mints' window, the list's size, how often it is refreshed, and when it counts as stale. */
export const liveSettings = defineSettings(
  {
    /** How old a mint may be and still be tracked on the live list (seconds since creation). */
    LIVE_WINDOW_S: z.coerce.number().int().min(60).max(86_400).default(300),
    /** Most entries the live list keeps (best first). */
    LIVE_MAX_ENTRIES: z.coerce.number().int().min(10).max(5000).default(500),
    /** How often the live projector refreshes the list (between refreshes, committed trades wake its signal evaluation). */
    LIVE_REFRESH_MS: z.coerce.number().int().min(250).max(60_000).default(2000),
    /**
     * A live snapshot older than this (beyond its promised delay) is served marked stale and turns /api/health
     * degraded; unset: five refresh intervals (10 s at the default 2 s), at least 6 s.
     */
    LIVE_STALE_AFTER_S: z.coerce.number().int().min(5).max(3600).optional(),
  },
  (e) => ({
    live: {
      windowS: e.LIVE_WINDOW_S,
      maxEntries: e.LIVE_MAX_ENTRIES,
      refreshMs: e.LIVE_REFRESH_MS,
      staleAfterS: e.LIVE_STALE_AFTER_S ?? Math.max(6, Math.ceil((5 * e.LIVE_REFRESH_MS) / 1000)),
    },
  }),
);
