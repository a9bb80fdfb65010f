/**
 * A fixed log-scale histogram of non-negative scores: the quantile sketch of the rolling threshold.
 *
 * Bin i holds the values in (γ^(i-1), γ^i] with γ = (1 + α) / (1 − α), and answers 2γ^i / (γ + 1) for any value
 * in it; that answer is within a relative error α of every value in the bin (both ends are off by exactly α).
 * So the quantile read from the histogram is within α of the exact order statistic of the same rank (the
 * "nearest rank" one, see nearestRank). α = 1%.
 *
 * The bins are fixed, not adaptive: every bucket and every process uses the same bin of a value, so histograms
 * merge by adding counts, exactly and in any order, and a state written by one process is read by another.
 * Zero has a bin of its own (most mints have no smart money: their composite is exactly 0). Values outside
 * [MIN_VALUE, MAX_VALUE] are clamped into the edge bins, where the bound does not hold; no positive composite
 * comes near either edge (its smallest is a smart-money count of 1 × max_mult ≈ 1 × freshness ≥ 5/6, its
 * largest ≈ 20 × 15 on the bonding curve), and the fixed range is what bounds memory.
 *
 * Why not an npm sketch: @datadog/sketches-js (DDSketch, the same bins) serialises to protobuf, grows or
 * silently collapses its store with the range, and we need one fixed bin layout shared by a plain-JSON state,
 * many time buckets and several processes; that layout is the forty lines below.
 */
export const RELATIVE_ACCURACY = 0.01;
export const MIN_VALUE = 1e-4;
export const MAX_VALUE = 1e6;

// Bound once: the histogram sits on the scoring path, and a global lookup is slow under jest's sandbox.
const { ceil, log, max, min, pow } = Math;
const GAMMA = (1 + RELATIVE_ACCURACY) / (1 - RELATIVE_ACCURACY);
const LN_GAMMA = log(GAMMA);

export const MIN_INDEX = ceil(log(MIN_VALUE) / LN_GAMMA);
export const MAX_INDEX = ceil(log(MAX_VALUE) / LN_GAMMA);
/** Positive bins (the zero bin comes on top). */
export const BIN_COUNT = MAX_INDEX - MIN_INDEX + 1;

/** The bin of a positive value. */
export function binIndex(x: number): number {
  if (!(x > 0 && Number.isFinite(x))) throw new RangeError(`binIndex takes a finite positive value, got ${x}`);
  return min(MAX_INDEX, max(MIN_INDEX, ceil(log(x) / LN_GAMMA)));
}

/** The value a bin answers for. */
export function binValue(i: number): number {
  return (2 * pow(GAMMA, i)) / (GAMMA + 1);
}

/**
 * The 1-based rank of the q-quantile among n values: the smallest value with at least q·n values at or below it
 * (nearest-rank definition). The epsilon keeps 0.9 × 10 = 9.000000000000002 at rank 9.
 */
export function nearestRank(q: number, n: number): number {
  return min(n, max(1, ceil(q * n - 1e-9)));
}

/** Counts over the fixed bins: the window aggregate the threshold is read from. */
export class DenseLogHistogram {
  zero = 0;
  total = 0;
  readonly counts = new Float64Array(BIN_COUNT);

  /** Adds `count` (negative to remove) to the zero bin (index null) or a positive bin. */
  addToBin(index: number | null, count: number): void {
    if (index === null) this.zero += count;
    else this.counts[index - MIN_INDEX] = (this.counts[index - MIN_INDEX] ?? 0) + count;
    this.total += count;
  }

  /** The value of the given 1-based rank, or null when the histogram holds fewer values. */
  valueAtRank(rank: number): number | null {
    if (rank < 1 || rank > this.total) return null;
    let seen = this.zero;
    if (seen >= rank) return 0;
    for (let k = 0; k < BIN_COUNT; k++) {
      seen += this.counts[k] ?? 0;
      if (seen >= rank) return binValue(k + MIN_INDEX);
    }
    return null;
  }

  quantile(q: number): number | null {
    return this.total === 0 ? null : this.valueAtRank(nearestRank(q, this.total));
  }
}
