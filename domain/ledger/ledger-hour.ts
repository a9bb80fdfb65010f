/**
 * Ledger hours: a prediction belongs to the closed UTC hour [start, start + 1 h) holding its `predicted_at`
 * (at the millisecond precision the leaf records), and inside an hour leaves are ordered by
 * (predicted_at, id): ids break ties in the same millisecond.
 *
 * The order is the leaf's own millisecond value, not the database's microseconds: a store that orders rows
 * itself must order by the millisecond-truncated time, then id (or write millisecond timestamps only).
 */
const HOUR_MS = 3_600_000;

export function utcHourStart(at: Date): Date {
  const t = at.getTime();
  if (!Number.isFinite(t)) throw new RangeError('not a valid date');
  return new Date(Math.floor(t / HOUR_MS) * HOUR_MS);
}

export function isUtcHourStart(at: Date): boolean {
  const t = at.getTime();
  return Number.isFinite(t) && t % HOUR_MS === 0;
}

export function utcHourEnd(hourStart: Date): Date {
  return new Date(hourStart.getTime() + HOUR_MS);
}

export function compareLeafOrder(a: { predictedAt: Date; id: number }, b: { predictedAt: Date; id: number }): number {
  return a.predictedAt.getTime() - b.predictedAt.getTime() || a.id - b.id;
}
