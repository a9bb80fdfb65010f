import { Context } from '@temporalio/activity';

/** The running activity's context (its heartbeat, its cancellation), or none when called directly (a script, a test, a benchmark). */
export function currentActivity(): Context | undefined {
  try {
    return Context.current();
  } catch {
    return undefined;
  }
}

/** Reports progress to Temporal (shown with the pending activity in the UI); a no-op outside an activity. */
export function heartbeat(details?: unknown): void {
  currentActivity()?.heartbeat(details);
}

/**
 * Runs one long statement (an index build, a swap waiting for a lock) while heartbeating every `everyMs`, so the
 * activity's heartbeat timeout detects a dead worker without bounding how long the statement may take.
 */
export async function whileHeartbeating<T>(details: () => unknown, work: () => Promise<T>, everyMs = 5000): Promise<T> {
  heartbeat(details());
  const timer = setInterval(() => heartbeat(details()), everyMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
