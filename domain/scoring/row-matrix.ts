import { pauseEvery, type Steps } from './stepwise';

/**
 * Many rows' feature vectors in one Float64Array, row-major: what a fit keeps of its corpus instead of one array per
 * row. At 700k index rows the per-row arrays were 1.4M heap objects alive for the whole refit, and every major
 * collection during it had to mark them; one typed array is a single object whose bytes the collector never scans.
 */
export type RowMatrix = {
  readonly rows: number;
  readonly dims: number;
  readonly data: Float64Array;
  /** Row i in a scratch array overwritten by the next call: read it, never keep it. */
  rowAt(i: number): Float64Array;
  /** Row i as its own array. */
  copyRow(i: number): number[];
};

/** Writes `features` in `keys` order into `out` from `offset`: a row's vector without an array of its own. */
export function writeFeatures<K extends string>(features: Readonly<Record<K, number>>, keys: readonly K[], out: Float64Array, offset: number): void {
  for (let j = 0; j < keys.length; j++) out[offset + j] = features[keys[j]!];
}

/**
 * The rows' vectors, each written in place by `vectorInto` when given (no array per row: at 700k rows those arrays
 * were the allocation a major collection of the corpus fell on), else copied from `vectorOf`.
 */
export function* rowMatrixSteps<R>(
  rows: readonly R[],
  vectorOf: (r: R) => ArrayLike<number>,
  dims: number,
  vectorInto?: (r: R, out: Float64Array, offset: number) => void,
): Steps<RowMatrix> {
  const data = new Float64Array(rows.length * dims);
  for (let i = 0; i < rows.length; i++) {
    if (vectorInto) vectorInto(rows[i]!, data, i * dims);
    else {
      const v = vectorOf(rows[i]!);
      if (v.length !== dims) throw new RangeError(`row ${i}: expected ${dims} features, got ${v.length}`);
      for (let j = 0; j < dims; j++) data[i * dims + j] = v[j]!;
    }
    if (pauseEvery(i, ROW_PIECE)) yield;
  }
  const scratch = new Float64Array(dims);
  return {
    rows: rows.length,
    dims,
    data,
    rowAt(i) {
      for (let j = 0, o = i * dims; j < dims; j++, o++) scratch[j] = data[o]!;
      return scratch;
    },
    copyRow: (i) => Array.from(data.subarray(i * dims, (i + 1) * dims)),
  };
}

const ROW_PIECE = 1 << 14;
