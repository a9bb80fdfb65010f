import type { BackfillPageRow } from '../../db/history/backfill-store';

/** The first page of a backfill chunk with nothing read yet: what a test stores hand-built events under. */
export const firstBackfillPage = (chunkId: string): BackfillPageRow => ({
  chunkId,
  page: 0,
  beforeSignature: null,
  lastSignature: null,
  signaturesSeen: 0,
  inRange: 0,
  transactionsDecoded: 0,
  oldestBlockTime: null,
});
