import { ApplicationFailure, Context } from '@temporalio/activity';

/** Reports progress to Temporal (visible in the Web UI, and how a dead worker is noticed); a no-op outside an activity. */
export function heartbeat(details?: unknown): void {
  let ctx: Context;
  try {
    ctx = Context.current();
  } catch {
    return; // called outside an activity (a script, a benchmark)
  }
  ctx.heartbeat(details);
}

/** An outside service's error that retrying cannot fix becomes a non-retryable failure of type `type`. */
export function asActivityFailure(e: unknown, type: string): unknown {
  const err = e as { retryable?: unknown; message?: string };
  if (err && err.retryable === false) return ApplicationFailure.nonRetryable(err.message ?? String(e), type);
  return e;
}

export const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));
