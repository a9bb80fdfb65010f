import type { Client } from '@temporalio/client';
import type { BackfillOnStartStore, OnStartStatus } from '../../db/history/backfill-on-start-store';
import { onStartState, type OnStartBackfill } from '../../domain/history/backfill-on-start';
import type { Logger } from '../../platform/logger';
import { startHistoryBackfill } from '../../workflows/history/history-backfill-starter';

export type BackfillOnStartDeps = {
  store: BackfillOnStartStore;
  temporal: Client;
  taskQueue: string;
  pageSize: number;
  /** What this start would backfill (null: turned off); a range stored by an earlier start wins over it. */
  wanted: OnStartBackfill | null;
  idlConfigured: boolean;
  log: Logger;
  now: () => Date;
};

/**
 * The worker's start-up step for the first start's backfill. The range is stored by the first start and reused by
 * every later one, so restarts and several workers start, join (the range's workflow id) or skip (every chunk
 * complete) one and the same backfill; a range whose run failed is started again, and skips its completed chunks.
 */
export async function startBackfillOnStart(d: BackfillOnStartDeps): Promise<OnStartStatus | null> {
  if (!d.wanted) return null;
  // Fail at start, not in a workflow hours later: the backfill decodes every transaction with the launchpad IDL.
  if (!d.idlConfigured)
    throw new Error(`HISTORY_BACKFILL_ON_START_H=${d.wanted.hours} backfills with the launchpad IDL: set PUMP_IDL_PATH, or HISTORY_BACKFILL_ON_START_H=0`);
  const s = await d.store.claim(d.wanted, d.now());
  if (onStartState(s.chunks, s.chunksDone) === 'done') {
    d.log.info({ rangeId: s.rangeId }, 'first-start backfill already done');
    return s;
  }
  await startHistoryBackfill(d.temporal, d.taskQueue, { fromMs: s.fromMs, toMs: s.toMs, chunkS: s.chunkS, pageSize: d.pageSize });
  d.log.info({ rangeId: s.rangeId, hours: s.hours, chunksDone: s.chunksDone, chunks: s.chunks }, 'first-start backfill started (or joined)');
  return s;
}
