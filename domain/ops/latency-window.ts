/**
 * Recent request latencies in a fixed-size ring, for `/api/status`. Bounded memory whatever the traffic:
 * at most `capacity` samples, and only those younger than `windowMs` count.
 */
export class LatencyWindow {
  private readonly at: Float64Array;
  private readonly ms: Float64Array;
  private next = 0;
  private size = 0;

  constructor(
    readonly windowMs: number,
    readonly capacity = 4096,
  ) {
    this.at = new Float64Array(capacity);
    this.ms = new Float64Array(capacity);
  }

  record(nowMs: number, latencyMs: number): void {
    this.at[this.next] = nowMs;
    this.ms[this.next] = latencyMs;
    this.next = (this.next + 1) % this.capacity;
    if (this.size < this.capacity) this.size++;
  }

  summary(nowMs: number): { count: number; p50: number | null; p90: number | null; p99: number | null } {
    const recent: number[] = [];
    for (let i = 0; i < this.size; i++) {
      if (nowMs - this.at[i]! <= this.windowMs) recent.push(this.ms[i]!);
    }
    recent.sort((a, b) => a - b);
    return { count: recent.length, p50: percentile(recent, 50), p90: percentile(recent, 90), p99: percentile(recent, 99) };
  }
}

/** Nearest-rank percentile of an ascending array; null when empty. */
export function percentile(sortedAsc: readonly number[], p: number): number | null {
  if (sortedAsc.length === 0) return null;
  const rank = Math.ceil((p / 100) * sortedAsc.length);
  return sortedAsc[Math.min(sortedAsc.length, Math.max(1, rank)) - 1]!;
}
