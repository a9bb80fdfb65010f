import { eventKey, priceSol, type CreateEvent, type TradeEvent } from './launch-events';

/**
 * The trades of one open mint that its features and labels can depend on, instead of all of them (a
 * graduate trades thousands of times in its day; 72 h of market held whole took 1.4 GB). Given the same
 * stream, the production functions return the same answers on this subset as on every trade:
 *
 * - every trade up to `keepAllUntilMs` (creation + the last scoring age): features, and the price at each call;
 * - every trade in the creation slot (who the insiders are) and every later trade by an insider (how much of
 *   what they bought they sold): outcome-labels' rug rule;
 * - of the later trades, the highest-priced (the peak, in the label and in runner odds from the call) and
 *   the last (the final price).
 *
 * `trades()` returns them in arrival order, so a stable sort by time orders ties exactly as it would the
 * whole stream. Exact for a stream in time order; out of order, an insider first seen after one of its own
 * later trades would miss that trade. Duplicates (same eventKey) are dropped among the kept trades; a duplicate
 * peak or last trade changes neither.
 */
export class LabelTrades {
  private readonly kept: { seq: number; t: TradeEvent }[] = [];
  private readonly keys = new Set<string>();
  private readonly insiders: Set<string>;
  private peak: { seq: number; t: TradeEvent } | null = null;
  private last: { seq: number; t: TradeEvent } | null = null;
  private seq = 0;

  constructor(
    private readonly create: CreateEvent,
    private readonly keepAllUntilMs: number,
  ) {
    this.insiders = new Set([create.creator]);
  }

  /** False when the trade was a duplicate of one already kept. */
  add(t: TradeEvent): boolean {
    const seq = this.seq++;
    const inCreationSlot = this.create.slot !== null && t.slot === this.create.slot;
    if (t.at.getTime() <= this.keepAllUntilMs || inCreationSlot || this.insiders.has(t.trader)) {
      const key = eventKey(t);
      if (this.keys.has(key)) return false;
      this.keys.add(key);
      if (inCreationSlot && t.isBuy) this.insiders.add(t.trader);
      this.kept.push({ seq, t });
      return true;
    }
    if (!this.peak || price(t) > price(this.peak.t)) this.peak = { seq, t };
    if (!this.last || !isBefore(t, this.last.t)) this.last = { seq, t };
    return true;
  }

  trades(): TradeEvent[] {
    const extra = [this.peak, this.last].filter((x, i, all): x is { seq: number; t: TradeEvent } => x !== null && all.indexOf(x) === i);
    return [...this.kept, ...extra].sort((a, b) => a.seq - b.seq).map((x) => x.t);
  }
}

const price = (t: TradeEvent) => priceSol(t.vSolLamports, t.vTokensRaw);
/** The order resolveLaunch sorts by: time, then slot; a later arrival with the same keys sorts after. */
const isBefore = (a: TradeEvent, b: TradeEvent) => a.at.getTime() < b.at.getTime() || (a.at.getTime() === b.at.getTime() && (a.slot ?? 0) < (b.slot ?? 0));
