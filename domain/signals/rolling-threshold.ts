import { binIndex, DenseLogHistogram, MAX_VALUE, MIN_VALUE, RELATIVE_ACCURACY } from './log-histogram';
import { forEachRunBin, parseThresholdState, THRESHOLD_STATE_VERSION, toRuns, type BucketState, type ThresholdState } from './threshold-state';

/**
 * The rolling threshold a composite score must reach: the 24 h P90 of the sampled scores, P95 while there is
 * less than 24 h of history, none below 30 samples.
 *
 * Memory: samples go into 10-minute buckets, each a sparse histogram over the fixed log bins (log-histogram.ts),
 * plus one dense window aggregate that the quantile is read from. The window slides a bucket at a time; a
 * bucket that leaves it is subtracted and dropped. So memory is O(buckets × bins) — at most 144 × 1,153 counts
 * — whatever the traffic (the public service's list of raw scores reached 22M entries / 3.3 GB).
 *
 * Warm-up and its end: the quantile is 0.95 for the first 18 h of history and then falls linearly to 0.90 at
 * 24 h (THRESHOLD_RULES.rampS). Switching at exactly 24 h would lower the bar by five percentile points in one
 * refresh, and every mint then in its window with a score between the old P95 and the new P90 would cross at
 * once: a burst of signals, then the normal rate (the public service's naive recomputation fired 697 alerts in
 * an hour). Spread over 6 h the quantile moves 0.014 percentile points a minute, below the sketch's own
 * resolution; the first 18 h keep the spec's cautious P95 while the history is short. Hysteresis was the
 * other option, but the 24 h mark is crossed once and never oscillates, so it would only delay the same step.
 * `warming` (and kind `p95_warmup`) stays true until the full 24 h; `quantile` reports the exact level used.
 *
 * Persistence and writers: one writer today, the live projector, which already folds every tracked mint each
 * refresh; it stores serialize() as one jsonb row keyed by its writer id every ~30 s and on continue-as-new
 * (≈ 135 KB after a day at 240 samples/s), and reloads it at start. Samples taken after the last save are taken
 * again from the rebuilt tapes, because the sampler's watermark is saved with the counts. A second writer needs
 * no lock and no read-modify-write of a shared row: writers own disjoint mints (a hash of the mint), each
 * replaces its own row (a retried save is idempotent), and readers use merge(), which is exact because counts
 * over fixed bins add up.
 *
 * History is the time since the oldest sample of the current unbroken history. It survives restarts with the
 * state; it resets only when the whole window has emptied (no sample for 24 h), when the old history says
 * nothing about the market any more. Time is passed in and never goes back: an `at` before the latest one seen
 * reads the window as of the latest one.
 */
export const THRESHOLD_RULES = {
  windowS: 86_400,
  bucketS: 600,
  minSamples: 30,
  warmupQuantile: 0.95,
  steadyQuantile: 0.9,
  /** The warm-up quantile falls linearly to the steady one over the last rampS of the first window. */
  rampS: 6 * 3_600,
} as const;

export type ThresholdKind = 'p95_warmup' | 'p90_24h';

export type ThresholdReading = {
  /** The score a mint must reach; null while fewer than minSamples samples are in the window. */
  value: number | null;
  quantile: number;
  kind: ThresholdKind;
  samples: number;
  historyS: number;
  warming: boolean;
};

/** The quantile used after `historyS` seconds of history. */
export function thresholdQuantile(historyS: number): number {
  const { windowS, rampS, warmupQuantile: hi, steadyQuantile: lo } = THRESHOLD_RULES;
  const into = historyS - (windowS - rampS);
  if (into <= 0) return hi;
  if (historyS >= windowS) return lo;
  return hi - ((hi - lo) * into) / rampS;
}

type Bucket = { zero: number; bins: Map<number, number> };

const BUCKET_MS = THRESHOLD_RULES.bucketS * 1000;
const WINDOW_MS = THRESHOLD_RULES.windowS * 1000;
const bucketStart = (atMs: number) => Math.floor(atMs / BUCKET_MS) * BUCKET_MS;

export class RollingThreshold {
  private readonly buckets = new Map<number, Bucket>();
  private readonly window = new DenseLogHistogram();
  private historyStartMs: number | null = null;
  private clockMs: number | null = null;
  /** The sampler's watermark (score-sampling.ts), persisted with the counts it describes. */
  sampledThroughMs: number | null = null;

  /** Adds one sampled score; false when `atMs` is already outside the window (a sample that came too late). */
  add(score: number, atMs: number): boolean {
    if (!(score >= 0 && Number.isFinite(score))) throw new RangeError(`a composite score is a finite number >= 0, got ${score}`);
    this.advance(atMs);
    const start = bucketStart(atMs);
    if (!this.inWindow(start)) return false;
    this.count(start, score === 0 ? null : binIndex(score), 1);
    this.historyStartMs = this.historyStartMs === null ? atMs : Math.min(this.historyStartMs, atMs);
    return true;
  }

  /** Moves the clock forward and drops the buckets that left the window. */
  advance(atMs: number): void {
    if (!Number.isFinite(atMs)) throw new RangeError(`time must be finite, got ${atMs}`);
    if (this.clockMs !== null && atMs <= this.clockMs) return;
    const crossedBucket = this.clockMs === null || bucketStart(atMs) !== bucketStart(this.clockMs);
    this.clockMs = atMs;
    if (!crossedBucket) return;
    for (const [start, b] of this.buckets) {
      if (this.inWindow(start)) continue;
      this.window.addToBin(null, -b.zero);
      for (const [i, n] of b.bins) this.window.addToBin(i, -n);
      this.buckets.delete(start);
    }
    if (this.buckets.size === 0) this.historyStartMs = null;
  }

  threshold(atMs: number): ThresholdReading {
    this.advance(atMs);
    const historyS = this.historyStartMs === null || this.clockMs === null ? 0 : Math.max(0, (this.clockMs - this.historyStartMs) / 1000);
    const quantile = thresholdQuantile(historyS);
    const warming = historyS < THRESHOLD_RULES.windowS;
    const samples = this.window.total;
    return {
      value: samples < THRESHOLD_RULES.minSamples ? null : this.window.quantile(quantile),
      quantile,
      kind: warming ? 'p95_warmup' : 'p90_24h',
      samples,
      historyS,
      warming,
    };
  }

  /** Buckets held and occupied bins over them: what memory is proportional to. */
  size(): { buckets: number; bins: number } {
    let bins = 0;
    for (const b of this.buckets.values()) bins += b.bins.size + (b.zero > 0 ? 1 : 0);
    return { buckets: this.buckets.size, bins };
  }

  serialize(): ThresholdState {
    const buckets: BucketState[] = [...this.buckets.entries()]
      .sort(([a], [b]) => a - b)
      .map(([startMs, b]) => ({ startMs, zero: b.zero, runs: toRuns(b.bins) }));
    return {
      version: THRESHOLD_STATE_VERSION,
      relativeAccuracy: RELATIVE_ACCURACY,
      minValue: MIN_VALUE,
      maxValue: MAX_VALUE,
      bucketS: THRESHOLD_RULES.bucketS,
      windowS: THRESHOLD_RULES.windowS,
      historyStartMs: this.historyStartMs,
      clockMs: this.clockMs,
      sampledThroughMs: this.sampledThroughMs,
      buckets,
    };
  }

  /** Rebuilds a threshold from a stored state; throws on a state it cannot trust (threshold-state.ts). */
  static deserialize(raw: unknown): RollingThreshold {
    const s = parseThresholdState(raw, THRESHOLD_RULES);
    const t = new RollingThreshold();
    for (const b of s.buckets) t.absorbBucket(b);
    t.historyStartMs = s.historyStartMs;
    t.sampledThroughMs = s.sampledThroughMs;
    // Setting the clock also drops any bucket the state holds outside its own window.
    if (s.clockMs !== null) t.advance(s.clockMs);
    return t;
  }

  /**
   * The threshold over several writers' partial states, as if one writer had seen every sample: counts add up
   * exactly, history starts at the oldest, the clock is the latest. A merged view is read-only in spirit: it has
   * no sampler watermark (each writer keeps its own).
   */
  static merge(parts: readonly ThresholdState[]): RollingThreshold {
    const t = new RollingThreshold();
    let clock: number | null = null;
    for (const raw of parts) {
      const s = parseThresholdState(raw, THRESHOLD_RULES);
      for (const b of s.buckets) t.absorbBucket(b);
      if (s.historyStartMs !== null) t.historyStartMs = t.historyStartMs === null ? s.historyStartMs : Math.min(t.historyStartMs, s.historyStartMs);
      if (s.clockMs !== null) clock = clock === null ? s.clockMs : Math.max(clock, s.clockMs);
    }
    if (clock !== null) t.advance(clock);
    return t;
  }

  private absorbBucket(b: BucketState): void {
    if (b.zero > 0) this.count(b.startMs, null, b.zero);
    forEachRunBin(b.runs, (i, n) => this.count(b.startMs, i, n));
  }

  private inWindow(start: number): boolean {
    return this.clockMs === null || start > bucketStart(this.clockMs) - WINDOW_MS;
  }

  private count(start: number, index: number | null, n: number): void {
    let b = this.buckets.get(start);
    if (!b) this.buckets.set(start, (b = { zero: 0, bins: new Map() }));
    if (index === null) b.zero += n;
    else b.bins.set(index, (b.bins.get(index) ?? 0) + n);
    this.window.addToBin(index, n);
  }
}
