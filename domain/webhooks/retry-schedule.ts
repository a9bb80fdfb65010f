/**
 * The Standard Webhooks retry schedule: the first attempt immediately, then after 5 s, 5 min, 30 min, 2 h, 5 h,
 * 10 h, 14 h, 20 h and 24 h (each delay counted from the attempt before). Ten attempts over about 3 days 4 h.
 */
export const DEFAULT_RETRY_SCHEDULE_S: readonly number[] = [0, 5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400];

export type AttemptOutcome = 'succeeded' | 'gone' | 'retry' | 'inactive';

/** 2xx is success; 410 Gone ends the subscription; anything else (other status, timeout, refused connection) retries. */
export function classifyStatus(statusCode: number | null): 'succeeded' | 'gone' | 'retry' {
  if (statusCode !== null && statusCode >= 200 && statusCode < 300) return 'succeeded';
  if (statusCode === 410) return 'gone';
  return 'retry';
}

/** The state an attempt is recorded with, given its outcome and whether another attempt follows. */
export function attemptState(outcome: 'succeeded' | 'gone' | 'retry', hasNext: boolean): 'succeeded' | 'failed' | 'retrying' | 'gave_up' {
  if (outcome === 'succeeded') return 'succeeded';
  if (outcome === 'gone') return 'failed';
  return hasNext ? 'retrying' : 'gave_up';
}
