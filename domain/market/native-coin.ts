/** Wrapped SOL: the mint price APIs quote the native coin under. */
export const WSOL_MINT = 'So11111111111111111111111111111111111111112';

export type PriceQuote = { symbol: 'SOL'; mint: string; usd: number; source: string; fetchedAt: Date };

/** A cached price is stale once it has missed two refreshes. */
export function isPriceStale(fetchedAtMs: number, nowMs: number, refreshIntervalS: number): boolean {
  return nowMs - fetchedAtMs > 2 * refreshIntervalS * 1000;
}
