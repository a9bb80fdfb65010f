import { z } from 'zod';
import { defineSettings } from './settings';

/**
 * The chain backfill (`npm run backfill`, `npm run backtest -- backfill:<from>..<to>`): which Solana node it reads
 * (a paid provider's URL; the public node allows far less), the request budget it keeps to, and how it splits a range.
 */
export const historySettings = defineSettings(
  {
    /** JSON-RPC endpoint of the backfill; unset: SOLANA_RPC_URL. May carry the provider's key: never logged. */
    HISTORY_BACKFILL_RPC_URL: z.string().url().optional(),
    /** Requests per second of one worker process to that node (every backfill of the process shares it). */
    HISTORY_BACKFILL_REQUESTS_PER_S: z.coerce.number().min(0.1).max(10_000).default(10),
    /** Requests per UTC day over every worker; a backfill that reaches it waits for the next day. */
    HISTORY_BACKFILL_DAILY_REQUESTS: z.coerce.number().int().min(10).max(1_000_000_000).default(1_000_000),
    /** Signatures per getSignaturesForAddress page (the node's maximum is 1000). */
    HISTORY_BACKFILL_PAGE_SIZE: z.coerce.number().int().min(1).max(1000).default(1000),
    /** getTransaction calls in flight per page (within the per-second budget). */
    HISTORY_BACKFILL_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(8),
    /** Length of one chunk (one child workflow) of a range. */
    HISTORY_BACKFILL_CHUNK_S: z.coerce
      .number()
      .int()
      .min(1)
      .max(7 * 86_400)
      .default(3_600),
    /** A range ends at least this long before now, so the live feed delivers the newest mints (and predicts them). */
    HISTORY_BACKFILL_LAG_S: z.coerce.number().int().min(0).max(86_400).default(900),
    /**
     * Hours of history the worker backfills on the deployment's first start (once: the range is stored); 0 turns it
     * off. Only mints created a label horizon (24 h) before the range's end are labelled, so 48 h give the models one
     * day. Only with HISTORY_BACKFILL_RPC_URL set: the embedded default and a deployment on SOLANA_RPC_URL alone never
     * read history unasked.
     */
    HISTORY_BACKFILL_ON_START_H: z.coerce.number().int().min(0).max(720).default(48),
  },
  (e) => ({
    history: {
      backfill: {
        rpcUrl: e.HISTORY_BACKFILL_RPC_URL,
        requestsPerS: e.HISTORY_BACKFILL_REQUESTS_PER_S,
        dailyRequests: e.HISTORY_BACKFILL_DAILY_REQUESTS,
        pageSize: e.HISTORY_BACKFILL_PAGE_SIZE,
        concurrency: e.HISTORY_BACKFILL_CONCURRENCY,
        chunkS: e.HISTORY_BACKFILL_CHUNK_S,
        lagS: e.HISTORY_BACKFILL_LAG_S,
        onStartH: e.HISTORY_BACKFILL_RPC_URL ? e.HISTORY_BACKFILL_ON_START_H : 0,
      },
    },
  }),
);
