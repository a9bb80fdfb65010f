import { MAX_VALUE, MIN_INDEX, MAX_INDEX, MIN_VALUE, RELATIVE_ACCURACY } from './log-histogram';

/**
 * The persisted form of the rolling threshold: plain JSON a store writes as one jsonb value (per writer) and
 * reads back after a restart. Its size is bounded by buckets × bins, never by traffic: at most
 * windowS / bucketS buckets, each with a zero count and its occupied bins as runs: [first bin index, counts…],
 * a new run after a gap of more than RUN_GAP empty bins. Clustered scores make a few short runs; an outlier costs
 * one small run instead of stretching a dense array across the whole range.
 */
export const THRESHOLD_STATE_VERSION = 1;

export type BucketState = {
  /** Bucket start, ms since the epoch (a multiple of bucketS). */
  startMs: number;
  zero: number;
  /** Runs of positive bins, ascending and disjoint: [index of the first bin, count, count, …]. */
  runs: number[][];
};

/** Longest stretch of empty bins kept inside a run (cheaper than starting a new one). */
export const RUN_GAP = 4;

/** Encodes sparse bin counts as runs. */
export function toRuns(bins: ReadonlyMap<number, number>): number[][] {
  const idx = [...bins.keys()].sort((a, b) => a - b);
  const runs: number[][] = [];
  let run: number[] | null = null;
  let next = 0;
  for (const i of idx) {
    if (run === null || i - next > RUN_GAP) runs.push((run = [i]));
    else for (; next < i; next++) run.push(0);
    run.push(bins.get(i)!);
    next = i + 1;
  }
  return runs;
}

/** Calls back for every positive bin of a bucket's runs. */
export function forEachRunBin(runs: readonly number[][], f: (index: number, count: number) => void): void {
  for (const r of runs) for (let k = 1; k < r.length; k++) if (r[k]! > 0) f(r[0]! + k - 1, r[k]!);
}

export type ThresholdState = {
  version: typeof THRESHOLD_STATE_VERSION;
  relativeAccuracy: number;
  minValue: number;
  maxValue: number;
  bucketS: number;
  windowS: number;
  /** Time of the oldest sample of the current unbroken history; null when the window is empty. */
  historyStartMs: number | null;
  /** Latest time the state has seen: it never goes back. */
  clockMs: number | null;
  /** The sampler's watermark: every sample tick at or before it has been added (null on a merged view). */
  sampledThroughMs: number | null;
  /** Ascending by startMs. */
  buckets: BucketState[];
};

const isCount = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x) && x >= 0;
const isTimeOrNull = (x: unknown): x is number | null => x === null || (typeof x === 'number' && Number.isFinite(x));

/**
 * Checks a state read back from storage. A state written under other sketch parameters or bucket sizes would
 * put values in the wrong bins, so it is refused rather than reinterpreted: the caller starts a new history.
 */
export function parseThresholdState(raw: unknown, expect: { bucketS: number; windowS: number }): ThresholdState {
  const fail = (why: string): never => {
    throw new TypeError(`threshold state refused: ${why}`);
  };
  if (typeof raw !== 'object' || raw === null) fail('not an object');
  const s = raw as Record<string, unknown>;
  if (s.version !== THRESHOLD_STATE_VERSION) fail(`version ${String(s.version)}, expected ${THRESHOLD_STATE_VERSION}`);
  if (s.relativeAccuracy !== RELATIVE_ACCURACY || s.minValue !== MIN_VALUE || s.maxValue !== MAX_VALUE) fail('written with other sketch parameters');
  if (s.bucketS !== expect.bucketS || s.windowS !== expect.windowS)
    fail(`bucket ${String(s.bucketS)} s / window ${String(s.windowS)} s, expected ${expect.bucketS} / ${expect.windowS}`);
  if (!isTimeOrNull(s.historyStartMs) || !isTimeOrNull(s.clockMs) || !isTimeOrNull(s.sampledThroughMs)) fail('times must be finite numbers or null');
  if (!Array.isArray(s.buckets)) fail('buckets is not a list');
  if ((s.buckets as unknown[]).length > 0 && (s.historyStartMs === null || s.clockMs === null)) fail('samples without a history start or clock');
  const bucketMs = expect.bucketS * 1000;
  let last = -Infinity;
  for (const b of s.buckets as unknown[]) {
    const x = b as Record<string, unknown>;
    if (typeof x !== 'object' || x === null) fail('bucket is not an object');
    if (typeof x.startMs !== 'number' || !Number.isInteger(x.startMs) || x.startMs % bucketMs !== 0)
      fail(`bucket start ${String(x.startMs)} is not on a ${expect.bucketS} s boundary`);
    if ((x.startMs as number) <= last) fail('buckets are not in ascending order');
    last = x.startMs as number;
    if (!isCount(x.zero)) fail('zero count must be an integer >= 0');
    if (!Array.isArray(x.runs)) fail('runs is not a list');
    let end = -Infinity;
    for (const r of x.runs as unknown[]) {
      if (!Array.isArray(r) || r.length < 2 || !Number.isInteger(r[0]) || !(r as unknown[]).slice(1).every(isCount)) fail('a run is [bin index, counts >= 0…]');
      const run = r as number[];
      if (run[0]! <= end) fail('runs overlap or are out of order');
      end = run[0]! + run.length - 2;
      if (run[0]! < MIN_INDEX || end > MAX_INDEX) fail('bin range outside the sketch');
    }
  }
  return s as unknown as ThresholdState;
}
