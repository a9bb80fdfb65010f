import { ApplicationFailure, ChildWorkflowFailure, continueAsNew, executeChild, proxyActivities, setHandler } from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { DriftImportActivities } from '../../activities/perps/drift-import-activities';
import { utcDaysBetween } from '../../domain/perps/utc-days';
import {
  DRIFT_FILE_IMPORT_WORKFLOW,
  driftFileWorkflowId,
  driftImportProgressQuery,
  type DriftFileInput,
  type DriftFileOutcome,
  type DriftImportInput,
  type DriftImportProgress,
} from './drift-import-contract';

// A day file is read in one transaction; a failed read (the bucket down, a body cut off, the worker gone) is rolled
// back and the file read again from the start. A file that is malformed as stored is not retried.
const fileActs = proxyActivities<DriftImportActivities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '2 minutes',
  retry: {
    initialInterval: '5 seconds',
    backoffCoefficient: 2,
    maximumInterval: '5 minutes',
    maximumAttempts: 8,
  },
});
const traderActs = proxyActivities<DriftImportActivities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '2 minutes',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 10 },
});

/** Days handled per run before continuing as new, which keeps each run's history small. */
const DAYS_PER_RUN = 400;
const KEPT_ERRORS = 20;

/** One day file of a market: imported (or recorded missing or corrupt) idempotently by its checksum. */
export async function driftFileImport(input: DriftFileInput): Promise<DriftFileOutcome> {
  return fileActs.importDriftFile(input);
}

/** Imports a market's day files over a range, a few at a time, then recomputes the traders they touched. */
export async function driftImport(input: DriftImportInput): Promise<DriftImportProgress> {
  const days = utcDaysBetween(input.from, input.to);
  const progress: DriftImportProgress = input.progress ?? {
    phase: 'files',
    days: days.length,
    done: 0,
    imported: 0,
    unchanged: 0,
    skipped: 0,
    missing: 0,
    corrupt: 0,
    failed: 0,
    rows: 0,
    tradersRefreshed: 0,
    errors: [],
  };
  setHandler(driftImportProgressQuery, () => progress);

  const failed = (date: string, kind: 'corrupt' | 'failed', error: string) => {
    progress[kind]++;
    progress.errors = [...progress.errors, { date, error }].slice(-KEPT_ERRORS);
  };
  const runDay = async (date: string) => {
    try {
      const r = await executeChild<(i: DriftFileInput) => Promise<DriftFileOutcome>>(DRIFT_FILE_IMPORT_WORKFLOW, {
        workflowId: driftFileWorkflowId(input.market, date),
        args: [{ market: input.market, date, refresh: input.refresh }],
      });
      progress[r.status]++;
      progress.rows += r.rows;
    } catch (e) {
      // Another import of an overlapping range holds this day right now; it imports it, this run does not wait.
      if (e instanceof WorkflowExecutionAlreadyStartedError) failed(date, 'failed', 'being imported by another run');
      else if (!(e instanceof ChildWorkflowFailure)) throw e;
      else {
        let cause: unknown = e.cause;
        while (cause && !(cause instanceof ApplicationFailure) && (cause as { cause?: unknown }).cause) cause = (cause as { cause?: unknown }).cause;
        const message = cause instanceof Error ? cause.message : e.message;
        failed(date, cause instanceof ApplicationFailure && cause.type === 'DriftFileCorrupt' ? 'corrupt' : 'failed', message);
      }
    }
    progress.done++;
  };

  let next = input.nextIndex ?? 0;
  const stopAt = Math.min(days.length, next + DAYS_PER_RUN);
  const running = new Set<Promise<void>>();
  while (next < stopAt) {
    if (running.size >= Math.max(1, input.concurrency)) await Promise.race(running);
    const p: Promise<void> = runDay(days[next++]!).finally(() => running.delete(p));
    running.add(p);
  }
  await Promise.all(running);
  if (next < days.length) await continueAsNew<typeof driftImport>({ ...input, progress, nextIndex: next });

  progress.phase = 'traders';
  for (;;) {
    const r = await traderActs.refreshDirtyDriftTraders({ limit: 200 });
    progress.tradersRefreshed += r.refreshed;
    if (r.remaining === 0) break;
  }
  progress.phase = 'done';
  return progress;
}
