import { z } from 'zod';
import { defineSettings } from './settings';

/**
 * The wallet index: what makes a wallet "smart" (smart_money_in, /api/v1/smart_money_active; the spec's min_total 8
 * and smart_score 0.30), how long an API process reuses a leaderboard or the published score version, how often the
 * rank snapshot is refreshed, and the rebuild's batch size.
 */
export const walletsSettings = defineSettings(
  {
    /** Launches a wallet needs to count as smart (`smart_money_in`, `/api/v1/smart_money_active`), and the sample from which `smart_score` is published (null below). */
    WALLETS_SMART_MIN_TOTAL: z.coerce.number().int().min(1).max(100_000).default(8),
    /** Smart_score a smart wallet needs. */
    WALLETS_SMART_MIN_SCORE: z.coerce.number().min(-1).max(1).default(0.3),
    /** How long an API process reuses a leaderboard and the published score version. */
    WALLETS_READ_CACHE_MS: z.coerce.number().int().min(0).max(600_000).default(15_000),
    /** Schedule of the rank snapshot (`rank`, `percentile` on a wallet record). */
    WALLETS_RANK_REFRESH_S: z.coerce.number().int().min(10).max(86_400).default(300),
    /** Resolved mints per activity of a wallet index rebuild. */
    WALLETS_REBUILD_BATCH_MINTS: z.coerce.number().int().min(1).max(20_000).default(500),
  },
  (e) => ({
    wallets: {
      smart: { minTotal: e.WALLETS_SMART_MIN_TOTAL, minScore: e.WALLETS_SMART_MIN_SCORE },
      readCacheMs: e.WALLETS_READ_CACHE_MS,
      rankRefreshS: e.WALLETS_RANK_REFRESH_S,
      rebuildBatchMints: e.WALLETS_REBUILD_BATCH_MINTS,
    },
  }),
);
