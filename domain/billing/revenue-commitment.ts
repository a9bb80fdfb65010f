/**
 * Weekly revenue commitments: a share of every activated plan's price is owed to holder-token burns, pooled per
 * UTC week (Monday 00:00 to the next Monday) and due when the week ends. The share is basis points so the
 * arithmetic stays in integer lamports; the committed amount rounds down (never commits more than was paid).
 */
const DAY_MS = 86_400_000;

export function weekStartUtc(at: Date): string {
  const midnight = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  const sinceMonday = (at.getUTCDay() + 6) % 7;
  return new Date(midnight - sinceMonday * DAY_MS).toISOString().slice(0, 10);
}

export function weekDueAt(weekStart: string): Date {
  return new Date(Date.parse(`${weekStart}T00:00:00Z`) + 7 * DAY_MS);
}

export function committedLamports(revenueLamports: bigint, shareBps: number): bigint {
  if (!Number.isInteger(shareBps) || shareBps < 0 || shareBps > 10_000) throw new RangeError('share must be 0..10000 basis points');
  return (revenueLamports * BigInt(shareBps)) / 10_000n;
}
