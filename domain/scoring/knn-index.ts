/**
 * k-nearest-neighbour search over z-scored feature vectors with Euclidean distance. Features live on very
 * different scales (SOL, log counts, shares, multiples); z-scoring with the corpus' own mean and std keeps
 * any one of them from dominating the distance. A constant feature (std 0) gets std 1: it then adds nothing
 * to any distance instead of dividing by zero.
 *
 * This is the flat version: one Float64Array scanned per query with a bounded max-heap (O(n·d + n log k)).
 * It stays as the reference the k-d tree (kd-tree-index.ts) is tested against, and it is what a tiny corpus
 * needs. Both return exactly the k smallest (squared distance, id) pairs.
 */
import { BoundedMaxHeap, assertVector, zScoreInto, type Scaling } from './knn-heap';
import { pauseEvery, runSteps, type Steps } from './stepwise';

export const DEFAULT_K = 50;

export type KnnNeighbour<L> = { id: number; label: L; distance: number };

export type { Scaling };

export interface KnnIndex<L> {
  readonly size: number;
  readonly dims: number;
  readonly scaling: Scaling;
  /** The min(k, size) nearest rows, nearest first; ties go to the lower id, so results are deterministic. */
  query(vector: ArrayLike<number>, k?: number): KnnNeighbour<L>[];
}

export type KnnRow<L> = { vector: ArrayLike<number>; label: L };

/** Per-feature mean and population std; std 0 (or an empty corpus) → 1. */
export function fitScaling(vectors: readonly ArrayLike<number>[], dims: number): Scaling {
  return runSteps(fitScalingSteps(vectors, dims));
}

export function* fitScalingSteps(vectors: readonly ArrayLike<number>[], dims: number): Steps<Scaling> {
  return yield* fitScalingOfSteps(vectors.length, (i) => vectors[i]!, dims);
}

/** `fitScalingSteps` over `n` vectors read one at a time (`vectorAt(i)` may build each afresh: none is kept). */
export function* fitScalingOfSteps(n: number, vectorAt: (i: number) => ArrayLike<number>, dims: number): Steps<Scaling> {
  const mean = new Array<number>(dims).fill(0);
  const std = new Array<number>(dims).fill(1);
  if (n === 0) return { mean, std };
  for (let i = 0; i < n; i++) {
    const v = vectorAt(i);
    for (let j = 0; j < dims; j++) mean[j]! += v[j]! / n;
    if (pauseEvery(i, SCALING_PIECE)) yield;
  }
  const ss = new Array<number>(dims).fill(0);
  for (let i = 0; i < n; i++) {
    const v = vectorAt(i);
    for (let j = 0; j < dims; j++) ss[j]! += (v[j]! - mean[j]!) ** 2;
    if (pauseEvery(i, SCALING_PIECE)) yield;
  }
  for (let j = 0; j < dims; j++) {
    const s = Math.sqrt(ss[j]! / n);
    std[j] = s > 1e-12 && Number.isFinite(s) ? s : 1;
  }
  return { mean, std };
}

const SCALING_PIECE = 1 << 15;

export function buildFlatKnnIndex<L>(rows: readonly KnnRow<L>[], dims: number, scaling?: Scaling): KnnIndex<L> {
  for (const [i, r] of rows.entries()) assertVector(r.vector, dims, `row ${i}`);
  const sc =
    scaling ??
    fitScaling(
      rows.map((r) => r.vector),
      dims,
    );
  const data = new Float64Array(rows.length * dims);
  rows.forEach((r, i) => zScoreInto(r.vector, sc, dims, data, i * dims));
  const labels = rows.map((r) => r.label);
  const n = rows.length;
  const q = new Float64Array(dims);

  return {
    size: rows.length,
    dims,
    scaling: sc,
    query(vector, k = DEFAULT_K) {
      assertVector(vector, dims, 'query');
      const want = Math.min(Math.max(0, Math.floor(k)), rows.length);
      if (want === 0) return [];
      zScoreInto(vector, sc, dims, q, 0);
      const heap = new BoundedMaxHeap(want);
      // `worst` is the current k-th nearest (squared), hoisted out of the heap so the hot loop stays plain.
      // Rows are scanned by id and only strictly nearer ones enter, so a tie keeps the lower id already held.
      let worst = Infinity;
      if (dims === 6) {
        // The published vector has six features; unrolled, the scan runs ~4× faster than the generic loop.
        const q0 = q[0]!,
          q1 = q[1]!,
          q2 = q[2]!,
          q3 = q[3]!,
          q4 = q[4]!,
          q5 = q[5]!;
        for (let i = 0, off = 0; i < n; i++, off += 6) {
          const a = data[off]! - q0;
          const b = data[off + 1]! - q1;
          const c = data[off + 2]! - q2;
          const e = data[off + 3]! - q3;
          const f = data[off + 4]! - q4;
          const g = data[off + 5]! - q5;
          const d = a * a + b * b + c * c + e * e + f * f + g * g;
          if (d < worst) {
            heap.offer(d, i);
            if (heap.full) worst = heap.topDistance;
          }
        }
      } else {
        for (let i = 0, off = 0; i < n; i++, off += dims) {
          let d = 0;
          for (let j = 0; j < dims; j++) {
            const x = data[off + j]! - q[j]!;
            d += x * x;
          }
          if (d < worst) {
            heap.offer(d, i);
            if (heap.full) worst = heap.topDistance;
          }
        }
      }
      return heap.sorted().map(({ id, d }) => ({ id, label: labels[id]!, distance: Math.sqrt(d) }));
    },
  };
}
