import { z } from 'zod';
import { defineSettings } from './settings';

/** The Enterprise websocket firehose (api/firehose/): retention of the resumable log, heartbeats, back-pressure and caps. */
export const firehoseSettings = defineSettings(
  {
    /** How long events stay resumable: a client reconnecting with an older `since` gets a gap frame and resyncs from REST. */
    FIREHOSE_RETENTION_S: z.coerce
      .number()
      .int()
      .min(60)
      .max(7 * 86_400)
      .default(3600),
    /** Protocol pings and heartbeat frames; a peer that has not answered the previous ping is dropped. */
    FIREHOSE_HEARTBEAT_S: z.coerce.number().min(0.05).max(300).default(20),
    /** Unsent bytes a client may have queued on the server before it is closed as a slow consumer (4408). */
    FIREHOSE_MAX_BUFFERED_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .default(4 * 1024 * 1024),
    /** Open firehose connections per key, and in all, over every API process sharing the database (leases). */
    FIREHOSE_MAX_PER_KEY: z.coerce.number().int().min(1).default(5),
    /** Firehose connections per key and in all, over every API process sharing the database (4429). */
    FIREHOSE_MAX_CONNECTIONS: z.coerce.number().int().min(1).default(5000),
    /** A connection's lease lasts this long unless its process renews it (every third of it): a killed process's places free up after it. */
    FIREHOSE_LEASE_S: z.coerce.number().min(0.3).max(600).default(30),
    /** How often connected keys are looked up again (revocation, a lapsed plan). */
    FIREHOSE_RECHECK_S: z.coerce.number().min(0.05).max(3600).default(60),
    /** Recent frames each API process keeps in memory for resumes without a database read. */
    FIREHOSE_RING_FRAMES: z.coerce.number().int().min(1).max(1_000_000).default(20_000),
    /** The reader's poll, behind LISTEN/NOTIFY (which wakes it at once); bounds the lag while notifications are lost. */
    FIREHOSE_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  },
  (e) => ({
    firehose: {
      retentionS: e.FIREHOSE_RETENTION_S,
      heartbeatS: e.FIREHOSE_HEARTBEAT_S,
      maxBufferedBytes: e.FIREHOSE_MAX_BUFFERED_BYTES,
      maxPerKey: e.FIREHOSE_MAX_PER_KEY,
      maxConnections: e.FIREHOSE_MAX_CONNECTIONS,
      leaseS: e.FIREHOSE_LEASE_S,
      recheckS: e.FIREHOSE_RECHECK_S,
      ringFrames: e.FIREHOSE_RING_FRAMES,
      pollMs: e.FIREHOSE_POLL_MS,
    },
  }),
);
