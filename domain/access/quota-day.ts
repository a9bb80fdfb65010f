/** Quotas count per UTC day; these say which day a moment belongs to and when its count resets. */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

export function quotaResetAt(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

/** Whole seconds until the reset, at least 1 so a client never retries in a tight loop. */
export function secondsUntilReset(now: Date): number {
  return Math.max(1, Math.ceil((quotaResetAt(now).getTime() - now.getTime()) / 1000));
}
