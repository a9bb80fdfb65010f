/**
 * Small rules of the observatory's overview: a poller's health from the age of its last success, and funding
 * as a yearly rate and the next payment. Hyperliquid pays funding every hour on the hour.
 */
export type PollerHealth = 'ok' | 'degraded' | 'down';

/** `ok` while the last success is under 3 periods old, `degraded` under 10, else (or never) `down`. */
export function pollerHealth(lastOkAt: number | null, now: number, periodS: number): PollerHealth {
  if (lastOkAt === null) return 'down';
  const age = now - lastOkAt;
  if (age < 3 * periodS * 1000) return 'ok';
  if (age < 10 * periodS * 1000) return 'degraded';
  return 'down';
}

/** The worse of two healths (an exchange is as healthy as the worst of its pollers). */
export function worseHealth(a: PollerHealth, b: PollerHealth): PollerHealth {
  const rank = { ok: 0, degraded: 1, down: 2 } as const;
  return rank[a] >= rank[b] ? a : b;
}

export const HOURS_PER_YEAR = 24 * 365;

/** Simple (not compounded) yearly rate of an hourly funding rate, as exchanges quote it. */
export function fundingApr(hourlyRate: number): number {
  return hourlyRate * HOURS_PER_YEAR;
}

/** The next whole UTC hour after `now` (Hyperliquid's funding time). */
export function nextHourlyFunding(now: number): number {
  return (Math.floor(now / 3_600_000) + 1) * 3_600_000;
}
