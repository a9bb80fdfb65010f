import { ApplicationFailure } from '@temporalio/activity';

/** An outside service's error that retrying cannot fix becomes a non-retryable failure of type `type`. */
export function asActivityFailure(e: unknown, type: string): unknown {
  const err = e as { retryable?: unknown; message?: string };
  if (err && err.retryable === false) return ApplicationFailure.nonRetryable(err.message ?? String(e), type);
  return e;
}

export const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));
