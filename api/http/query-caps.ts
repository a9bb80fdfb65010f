/**
 * Internal caps for query parameters the spec leaves unbounded above (openapi.yaml says so on each). The request is
 * valid whatever its size; the service answers at most this much, so one request's work stays bounded.
 */
export const MAX_ROWS_PER_ANSWER = 500;
export const capRows = (n: number): number => Math.min(n, MAX_ROWS_PER_ANSWER);

/** The largest value of a Postgres `integer` column: no count exceeds it, and a larger parameter would be refused. */
export const INT4_MAX = 2_147_483_647;

/** The last second of year 9999: the latest instant a timestamp parameter can name (no commit can follow it). */
export const LAST_UNIX_SECOND = 253_402_300_799;
