import { ActivityFailure, ApplicationFailure, continueAsNew, executeChild, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { BackfillActivities } from '../../activities/history/backfill-activities';
import { backfillChunkId, backfillChunks, backfillRangeId } from '../../domain/history/backfill-range';
import { sleepUntil } from '../workflow-time';
import {
  HISTORY_BACKFILL_CHUNK_WORKFLOW,
  RPC_BUDGET_EXHAUSTED,
  addTotals,
  emptyTotals,
  historyBackfillChunkProgressQuery,
  historyBackfillProgressQuery,
  type BackfillChunkInput,
  type BackfillChunkProgress,
  type HistoryBackfillInput,
  type HistoryBackfillProgress,
} from './history-backfill-contract';

// A page is read and stored in one activity; a failed one (node down past the client's retries, worker killed) is
// read again from its `before`, which stores nothing twice. Shapes the node should never send are not retried.
const acts = proxyActivities<BackfillActivities>({
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '1 minute',
  retry: {
    initialInterval: '2 seconds',
    backoffCoefficient: 2,
    maximumInterval: '2 minutes',
  },
});

/** Pages per run before continuing as new, which keeps each run's history small. */
const PAGES_PER_RUN = 500;
const CHUNKS_PER_RUN = 200;

/** One chunk of a range: pages its signatures newest first from `before` until below its start. */
export async function historyBackfillChunk(input: BackfillChunkInput): Promise<BackfillChunkProgress> {
  const c = input.carried;
  const p: BackfillChunkProgress = {
    chunkId: input.chunkId,
    page: c?.page ?? 0,
    cursor: c?.cursor ?? input.before,
    oldestMs: c?.oldestMs ?? null,
    totals: c?.totals ?? emptyTotals(),
    waitingUntil: null,
    done: false,
    skipped: false,
    historyMints: 0,
  };
  setHandler(historyBackfillChunkProgressQuery, () => p);
  if (!c) {
    const begun = await acts.beginBackfillChunk({ chunkId: input.chunkId, rangeId: input.rangeId, fromMs: input.fromMs, toMs: input.toMs });
    if (begun.completed) return { ...p, cursor: begun.lastSignature, done: true, skipped: true };
  }
  for (let n = 0; ; n++) {
    if (n >= PAGES_PER_RUN)
      await continueAsNew<typeof historyBackfillChunk>({ ...input, carried: { page: p.page, cursor: p.cursor, totals: p.totals, oldestMs: p.oldestMs } });
    try {
      const r = await acts.backfillHistoryPage({ ...input, page: p.page, before: p.cursor });
      p.page++;
      p.cursor = r.cursor;
      p.oldestMs = r.oldestMs ?? p.oldestMs;
      p.totals = addTotals(p.totals, r.totals);
      if (r.done) break;
    } catch (e) {
      const cause = e instanceof ActivityFailure ? e.cause : null;
      if (!(cause instanceof ApplicationFailure) || cause.type !== RPC_BUDGET_EXHAUSTED) throw e;
      // Today's request cap is spent: the page is read again when the next day's budget opens.
      const until = Number(cause.details?.[0]);
      p.waitingUntil = new Date(until).toISOString();
      await sleepUntil(until);
      p.waitingUntil = null;
    }
  }
  // Folded before the chunk is marked complete: a crash in between folds it again (idempotent), never skips it.
  p.historyMints = (await acts.foldBackfilledChunk({ chunkId: input.chunkId, fromMs: input.fromMs, toMs: input.toMs, rangeToMs: input.rangeToMs })).mints;
  await acts.completeBackfillChunk({ chunkId: input.chunkId, lastSignature: p.cursor });
  p.done = true;
  return p;
}

/**
 * A range of launchpad history, newest chunk first: a child workflow per chunk (id from the chunk's times), each
 * starting where the newer one stopped paging. The same range started again joins the running one, or, finished,
 * skips every completed chunk.
 */
export async function historyBackfill(input: HistoryBackfillInput): Promise<HistoryBackfillProgress> {
  const chunks = backfillChunks(input.fromMs, input.toMs, input.chunkS);
  const rangeId = backfillRangeId(input.fromMs, input.toMs);
  const progress: HistoryBackfillProgress = input.carried?.progress ?? {
    rangeId,
    chunks: chunks.length,
    chunksDone: 0,
    current: null,
    totals: emptyTotals(),
    historyMints: 0,
  };
  setHandler(historyBackfillProgressQuery, () => progress);
  let before = input.carried?.before ?? null;
  const start = input.carried?.nextIndex ?? 0;
  for (let i = start; i < chunks.length; i++) {
    if (i - start >= CHUNKS_PER_RUN) await continueAsNew<typeof historyBackfill>({ ...input, carried: { nextIndex: i, before, progress } });
    const chunkId = backfillChunkId(chunks[i]!);
    progress.current = chunkId;
    const r = await executeChild<typeof historyBackfillChunk>(HISTORY_BACKFILL_CHUNK_WORKFLOW, {
      workflowId: chunkId,
      taskQueue: workflowInfo().taskQueue,
      args: [{ rangeId, chunkId, fromMs: chunks[i]!.fromMs, toMs: chunks[i]!.toMs, rangeToMs: input.toMs, pageSize: input.pageSize, before }],
    });
    before = r.cursor;
    progress.totals = addTotals(progress.totals, r.totals);
    progress.historyMints += r.historyMints;
    progress.chunksDone++;
  }
  progress.current = null;
  return progress;
}
