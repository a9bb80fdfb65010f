import { assertVector, zScoreInto } from './knn-heap';
import { DEFAULT_K, fitScalingSteps, type KnnIndex, type KnnNeighbour, type KnnRow, type Scaling } from './knn-index';
import { buildKdTreeSteps } from './kd-tree-build';
import { createKdTreeSearch } from './kd-tree-search';
import { groupDuplicates } from './point-groups';
import { pauseEvery, runSteps, type Steps } from './stepwise';

/**
 * Exact k-NN over z-scored vectors with a bucketed k-d tree: the same answer as the flat scan (the k
 * smallest (squared distance, id) pairs, bit for bit), in a few hundred distance evaluations instead of n
 * when the data is low-dimensional or clustered, as launch features are.
 *
 * - Exact duplicates are one point carrying its ids in ascending order (point-groups.ts). Thousands of mints
 *   with no trade at 30 s share one vector; without grouping a query there would have to visit every one of
 *   them to find the lowest ids among equal distances.
 * - The tree (kd-tree-build.ts) keeps a bounding box per node; the search (kd-tree-search.ts) prunes on them.
 *
 * Memory: Float64 coordinates (the flat scan's precision, so answers match exactly), two Int32 per row and two
 * Float32 boxes per node; about 60 MB at 1M rows of 6 features, no per-row objects besides the caller's labels.
 */
const ROW_PIECE = 1 << 14;

/** One query's nearest rows in arrays the index reuses: valid until its next query. */
export type NearestRows = { count: number; ids: Int32Array; distances: Float64Array };

export interface KdTreeIndex<L> extends KnnIndex<L> {
  /**
   * `query`'s answer as row ids and distances, nearest first, without an object per neighbour: a score call at 1M
   * rows built three per neighbour (heap entry, neighbour, the caller's copy), a third of its time in the collector.
   */
  nearest(vector: ArrayLike<number>, k?: number): NearestRows;
}

export function buildKdTreeIndex<L>(rows: readonly KnnRow<L>[], dims: number, scaling?: Scaling): KdTreeIndex<L> {
  return runSteps(buildKdTreeIndexSteps(rows, dims, scaling));
}

export function* buildKdTreeIndexSteps<L>(rows: readonly KnnRow<L>[], dims: number, scaling?: Scaling): Steps<KdTreeIndex<L>> {
  const n = rows.length;
  for (let i = 0; i < n; i++) {
    assertVector(rows[i]!.vector, dims, `row ${i}`);
    if (pauseEvery(i, ROW_PIECE)) yield;
  }
  const sc =
    scaling ??
    (yield* fitScalingSteps(
      rows.map((r) => r.vector),
      dims,
    ));
  const z = new Float64Array(n * dims);
  for (let i = 0; i < n; i++) {
    zScoreInto(rows[i]!.vector, sc, dims, z, i * dims);
    if (pauseEvery(i, ROW_PIECE)) yield;
  }
  const labels = new Array<L>(n);
  for (let i = 0; i < n; i++) {
    labels[i] = rows[i]!.label;
    if (pauseEvery(i, ROW_PIECE)) yield;
  }
  return yield* indexOf(z, labels, dims, sc);
}

/**
 * The index of `columns` of each vector (vectors[i] is labels[i]'s), z-scored with `scaling` (one mean and std per
 * column): the same index as projecting every vector to those columns first, without a projected copy per row. At
 * 700k rows the copies were 1.4M short-lived objects, promoted together, and the garbage collector's longest pauses.
 */
export function* buildKdTreeIndexOnColumnsSteps<L>(
  vectors: readonly ArrayLike<number>[] | ((i: number) => ArrayLike<number>),
  labels: readonly L[],
  columns: readonly number[],
  scaling: Scaling,
): Steps<KdTreeIndex<L>> {
  const vectorAt = typeof vectors === 'function' ? vectors : (i: number) => vectors[i]!;
  const dims = columns.length;
  const projected = new Float64Array(dims);
  return yield* buildKdTreeIndexOfSteps(
    labels,
    (i) => {
      const v = vectorAt(i);
      for (let j = 0; j < dims; j++) projected[j] = v[columns[j]!]!;
      return projected;
    },
    scaling,
    typeof vectors === 'function' ? labels.length : vectors.length,
  );
}

/**
 * The index of `labels` with row i's vector read by `vectorAt(i)` (it may reuse one scratch array: each is z-scored
 * and dropped before the next is read), z-scored with `scaling`, whose length is the dimension: no `KnnRow` object
 * and no vector kept per row.
 */
export function* buildKdTreeIndexOfSteps<L>(
  labels: readonly L[],
  vectorAt: (i: number) => ArrayLike<number>,
  scaling: Scaling,
  n = labels.length,
): Steps<KdTreeIndex<L>> {
  if (labels.length !== n) throw new RangeError(`${n} vectors but ${labels.length} labels`);
  const dims = scaling.mean.length;
  const z = new Float64Array(n * dims);
  for (let i = 0; i < n; i++) {
    const v = vectorAt(i);
    assertVector(v, dims, `row ${i}`);
    zScoreInto(v, scaling, dims, z, i * dims);
    if (pauseEvery(i, ROW_PIECE)) yield;
  }
  return yield* indexOf(z, [...labels], dims, scaling);
}

/** The index over z-scored rows `z` (handed over: the tree reorders it) labelled `labels`. */
function* indexOf<L>(z: Float64Array, labels: readonly L[], dims: number, sc: Scaling): Steps<KdTreeIndex<L>> {
  const n = labels.length;
  const groups = yield* groupDuplicates(z, n, dims);
  const search = createKdTreeSearch(yield* buildKdTreeSteps(groups, dims));
  const q = new Float64Array(dims);
  const out: NearestRows = { count: 0, ids: new Int32Array(0), distances: new Float64Array(0) };
  const nearest = (vector: ArrayLike<number>, k = DEFAULT_K): NearestRows => {
    assertVector(vector, dims, 'query');
    const want = Math.min(Math.max(0, Math.floor(k)), n);
    out.count = 0;
    if (want === 0) return out;
    if (out.ids.length < want) {
      out.ids = new Int32Array(want);
      out.distances = new Float64Array(want);
    }
    zScoreInto(vector, sc, dims, q, 0);
    const count = search(q, want, out.ids, out.distances);
    for (let i = 0; i < count; i++) out.distances[i] = Math.sqrt(out.distances[i]!);
    out.count = count;
    return out;
  };
  return {
    size: n,
    dims,
    scaling: sc,
    nearest,
    query(vector, k = DEFAULT_K) {
      const { count, ids, distances } = nearest(vector, k);
      const found = new Array<KnnNeighbour<L>>(count);
      for (let i = 0; i < count; i++) found[i] = { id: ids[i]!, label: labels[ids[i]!]!, distance: distances[i]! };
      return found;
    },
  };
}
