export type WeightBudgetOptions = {
  /** Weight this process may spend in any 60 s window (Hyperliquid allows 1200 per IP; leave room for others). */
  weightPerMinute: number;
  /** Share of the budget that may go out at once after a quiet spell (default 0.1). */
  burstFraction?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
};

export type WeightBudgetStats = { spent: number; waitedMs: number; penalties: number; available: number };

/**
 * A token bucket over request weight. Capacity B = burstFraction × W refills at (W − B) per minute, so any
 * 60 s window spends at most B + (W − B) = W: the exchange's per-minute limit holds over every window, not only
 * over aligned minutes. Callers are served first come, first served, so one heavy request is not starved by a
 * stream of light ones. Weight known only after the answer (per-item extras) is charged afterwards and may push
 * the bucket below zero; the debt delays the next callers, which keeps the long-run rate within W.
 */
export class WeightBudget {
  private readonly capacity: number;
  private readonly perMs: number;
  private tokens: number;
  private updatedAt: number;
  private blockedUntil = 0;
  private queue: Promise<void> = Promise.resolve();
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private counters = { spent: 0, waitedMs: 0, penalties: 0 };

  constructor(o: WeightBudgetOptions) {
    if (!(o.weightPerMinute > 0)) throw new RangeError('weightPerMinute must be positive');
    const burst = o.burstFraction ?? 0.1;
    if (!(burst > 0 && burst < 1)) throw new RangeError('burstFraction must be in (0, 1)');
    this.capacity = o.weightPerMinute * burst;
    this.perMs = (o.weightPerMinute - this.capacity) / 60_000;
    this.now = o.now ?? Date.now;
    this.sleep = o.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.tokens = this.capacity;
    this.updatedAt = this.now();
  }

  /** Waits until `weight` can be spent, then spends it. A weight above the burst waits for a full bucket. */
  acquire(weight: number): Promise<void> {
    const turn = this.queue.then(() => this.take(weight));
    // The next caller waits for this one whatever happens to it.
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /** Spends weight learned after the fact (items in an answer); never waits. */
  charge(weight: number): void {
    if (weight <= 0) return;
    this.refill();
    this.tokens -= weight;
    this.counters.spent += weight;
  }

  /** The exchange said 429: spend nothing more until `ms` from now, and start again from an empty bucket. */
  penalize(ms: number): void {
    this.refill();
    this.tokens = Math.min(this.tokens, 0);
    this.blockedUntil = Math.max(this.blockedUntil, this.now() + ms);
    this.counters.penalties++;
  }

  stats(): WeightBudgetStats {
    this.refill();
    return { ...this.counters, available: this.tokens };
  }

  private async take(weight: number): Promise<void> {
    const need = Math.min(weight, this.capacity);
    for (;;) {
      this.refill();
      const now = this.now();
      const blocked = this.blockedUntil - now;
      const short = need - this.tokens;
      if (blocked <= 0 && short <= 0) break;
      const wait = Math.max(blocked, Math.ceil(short / this.perMs), 1);
      this.counters.waitedMs += wait;
      await this.sleep(wait);
    }
    this.tokens -= weight;
    this.counters.spent += weight;
  }

  private refill(): void {
    const now = this.now();
    const elapsed = now - this.updatedAt;
    this.updatedAt = now;
    if (elapsed > 0 && now >= this.blockedUntil) this.tokens = Math.min(this.capacity, this.tokens + elapsed * this.perMs);
  }
}
