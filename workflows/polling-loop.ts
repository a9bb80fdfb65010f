import { log, sleep, workflowInfo } from '@temporalio/workflow';

/** `everyMs`: how long an idle loop waits before it looks again; a run continues as new after `iterationsPerRun` looks. */
export type PollingInput = { everyMs: number; iterationsPerRun: number };

/** A look is a handful of events: a run ends well before Temporal's limits and replays quickly. */
const MAX_HISTORY_EVENTS = 10_000;

/**
 * The body of a long-running workflow that drains work kept in Postgres: `look` returns how much it found; after a
 * look that found something it looks again at once (a burst drains without waiting), otherwise it sleeps `everyMs`.
 * A failed look (its retries exhausted) is logged and tried again after the sleep: the work is in Postgres, so
 * nothing is lost, only later. Returns after `iterationsPerRun` looks, or sooner when the history grows long: the
 * caller then continues as new.
 */
export async function pollUntilContinueAsNew(input: PollingInput, what: string, look: () => Promise<number>): Promise<void> {
  for (let i = 0; i < input.iterationsPerRun; i++) {
    let found = 0;
    try {
      found = await look();
    } catch (err) {
      log.warn(`${what} failed; the next look retries it`, { error: String(err) });
    }
    if (found === 0) await sleep(input.everyMs);
    if (workflowInfo().historyLength > MAX_HISTORY_EVENTS || workflowInfo().continueAsNewSuggested) break;
  }
}
