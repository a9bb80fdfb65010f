import { BoundedMaxHeap, assertVector, zScoreInto } from './knn-heap';
import { DEFAULT_K, fitScalingSteps, type KnnIndex, type KnnRow, type Scaling } from './knn-index';
import { groupDuplicates, type PointGroups } from './point-groups';
import { pauseEvery, runSteps, type Steps } from './stepwise';

/**
 * Exact k-NN over z-scored vectors with a bucketed k-d tree: the same answer as the flat scan (the k
 * smallest (squared distance, id) pairs, bit for bit), in a few hundred distance evaluations instead of n.
 * Six features with three of them functions of vSol make the data low-dimensional, where k-d trees prune well.
 *
 * - Exact duplicates are one point carrying its ids in ascending order (point-groups.ts). Thousands of mints
 *   with no trade at 30 s share one vector; without grouping a query there would have to visit every one of
 *   them to find the lowest ids among equal distances.
 * - Median splits on the widest coordinate of the node's points; leaves of at most LEAF_SIZE points, stored
 *   contiguously in tree order so a leaf scan reads one run of memory. The tree is implicit (node i has
 *   children 2i+1, 2i+2; a node's point range follows from halving), so per node only the split dimension,
 *   split value and the smallest id below it are stored.
 * - Pruning is exact in floating point, not just on paper: a far subtree's lower bound sums, in the same
 *   order as the distance itself, per-coordinate gaps that round to at most the real coordinate differences
 *   (rounding is monotone), so it never exceeds the distance computed for any point inside. A subtree at
 *   exactly the current k-th distance is still visited when it holds a lower id (ties go to the lower id).
 *
 * Memory: Float64 coordinates (the flat scan's precision, so answers match exactly) plus two Int32 per row
 * and ~13 bytes per leaf pair of nodes; about 60 MB at 1M rows, no per-row objects besides the caller's labels.
 */
export const LEAF_SIZE = 8;
/** Subtrees up to this many points are built in one uninterrupted piece (a few ms). */
const PIECE_POINTS = 1 << 13;
const ROW_PIECE = 1 << 14;

export function buildKdTreeIndex<L>(rows: readonly KnnRow<L>[], dims: number, scaling?: Scaling): KnnIndex<L> {
  return runSteps(buildKdTreeIndexSteps(rows, dims, scaling));
}

export function* buildKdTreeIndexSteps<L>(rows: readonly KnnRow<L>[], dims: number, scaling?: Scaling): Steps<KnnIndex<L>> {
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
  const groups = yield* groupDuplicates(z, n, dims);
  const tree = yield* buildTree(groups, dims);
  const labels = rows.map((r) => r.label);
  const search = createSearch(tree, dims);
  const q = new Float64Array(dims);
  return {
    size: n,
    dims,
    scaling: sc,
    query(vector, k = DEFAULT_K) {
      assertVector(vector, dims, 'query');
      const want = Math.min(Math.max(0, Math.floor(k)), n);
      if (want === 0) return [];
      zScoreInto(vector, sc, dims, q, 0);
      return search(q, want).map(({ id, d }) => ({ id, label: labels[id]!, distance: Math.sqrt(d) }));
    },
  };
}

type KdTree = {
  /** Unique points in tree order, row-major. */
  points: Float64Array;
  /** Ids of point p: ids[start[p] .. start[p+1]), ascending. */
  start: Int32Array;
  ids: Int32Array;
  count: number;
  splitDim: Uint8Array;
  splitVal: Float64Array;
  /** Smallest row id in each node's subtree (leaves included). */
  minId: Int32Array;
};

/** Depth at which every node holds at most LEAF_SIZE points (halving sizes: ceil(count / 2^depth)). */
function leafDepth(count: number): number {
  let depth = 0;
  while (Math.ceil(count / 2 ** depth) > LEAF_SIZE) depth++;
  return depth;
}

function* buildTree(g: PointGroups, dims: number): Steps<KdTree> {
  const { count } = g;
  if (dims > 255) throw new RangeError(`k-d tree supports up to 255 dimensions, got ${dims}`);
  const depth = leafDepth(count);
  const internal = 2 ** depth - 1;
  const splitDim = new Uint8Array(internal);
  const splitVal = new Float64Array(internal);
  // Points move into tree order as they are partitioned (rows swapped in place, `perm` tracking where each
  // came from), so every pass reads memory sequentially.
  const points = g.points;
  const perm = new Int32Array(count);
  for (let i = 0; i < count; i++) perm[i] = i;

  const split = (node: number, lo: number, hi: number): number => {
    const dim = widestDimension(points, lo, hi, dims);
    const mid = (lo + hi) >>> 1;
    selectNth(points, dims, dim, perm, lo, hi - 1, mid);
    splitDim[node] = dim;
    splitVal[node] = points[mid * dims + dim]!;
    return mid;
  };
  const buildSubtree = (node: number, lo: number, hi: number): void => {
    if (hi - lo <= LEAF_SIZE) return;
    const mid = split(node, lo, hi);
    buildSubtree(2 * node + 1, lo, mid);
    buildSubtree(2 * node + 2, mid, hi);
  };
  function* buildPieces(node: number, lo: number, hi: number): Steps<void> {
    if (hi - lo <= PIECE_POINTS) {
      buildSubtree(node, lo, hi);
      yield;
      return;
    }
    const mid = split(node, lo, hi);
    yield;
    yield* buildPieces(2 * node + 1, lo, mid);
    yield* buildPieces(2 * node + 2, mid, hi);
  }
  yield* buildPieces(0, 0, count);

  // Each point's ids follow it into tree order.
  const start = new Int32Array(count + 1);
  const ids = new Int32Array(g.ids.length);
  let w = 0;
  for (let pos = 0; pos < count; pos++) {
    const p = perm[pos]!;
    start[pos] = w;
    for (let s = g.start[p]!, e = g.start[p + 1]!; s < e; s++) ids[w++] = g.ids[s]!;
    if (pauseEvery(pos, ROW_PIECE)) yield;
  }
  start[count] = w;

  const minId = new Int32Array(2 ** (depth + 1) - 1);
  const fillMinId = (node: number, lo: number, hi: number): number => {
    let m = 0x7fffffff;
    if (hi - lo <= LEAF_SIZE) for (let p = lo; p < hi; p++) m = Math.min(m, ids[start[p]!]!);
    else {
      const mid = (lo + hi) >>> 1;
      m = Math.min(fillMinId(2 * node + 1, lo, mid), fillMinId(2 * node + 2, mid, hi));
    }
    minId[node] = m;
    return m;
  };
  fillMinId(0, 0, count);
  return { points, start, ids, count, splitDim, splitVal, minId };
}

function widestDimension(points: Float64Array, lo: number, hi: number, dims: number): number {
  const min = new Float64Array(dims).fill(Infinity);
  const max = new Float64Array(dims).fill(-Infinity);
  for (let o = lo * dims, end = hi * dims; o < end; o += dims) {
    for (let j = 0; j < dims; j++) {
      const x = points[o + j]!;
      if (x < min[j]!) min[j] = x;
      if (x > max[j]!) max[j] = x;
    }
  }
  let best = 0;
  for (let j = 1; j < dims; j++) if (max[j]! - min[j]! > max[best]! - min[best]!) best = j;
  return best;
}

/**
 * Reorders the rows l..r (inclusive) of `points` (and `perm` alongside) so row k holds the row of rank k by
 * coordinate `dim`, rows with smaller-or-equal coordinates before it and greater-or-equal after (Wirth's
 * selection with a median-of-three pivot; Hoare swaps keep runs of equal coordinates balanced).
 */
export function selectNth(points: Float64Array, dims: number, dim: number, perm: Int32Array, l: number, r: number, k: number): void {
  const key = (row: number) => points[row * dims + dim]!;
  while (l < r) {
    const x = median3(key(l), key(k), key(r));
    let i = l;
    let j = r;
    do {
      while (key(i) < x) i++;
      while (x < key(j)) j--;
      if (i <= j) {
        swapRows(points, dims, perm, i, j);
        i++;
        j--;
      }
    } while (i <= j);
    if (j < k) l = i;
    if (k < i) r = j;
  }
}

function swapRows(points: Float64Array, dims: number, perm: Int32Array, a: number, b: number): void {
  for (let j = 0, oa = a * dims, ob = b * dims; j < dims; j++) {
    const t = points[oa + j]!;
    points[oa + j] = points[ob + j]!;
    points[ob + j] = t;
  }
  const p = perm[a]!;
  perm[a] = perm[b]!;
  perm[b] = p;
}

const median3 = (a: number, b: number, c: number) => Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));

/** The search over one tree; `q` is the z-scored query. Returns the `want` nearest as (id, squared distance). */
function createSearch(t: KdTree, dims: number): (q: Float64Array, want: number) => { id: number; d: number }[] {
  const { points, start, ids, count, splitDim, splitVal, minId } = t;
  const off = new Float64Array(dims);
  let q: Float64Array = off;
  let heap = new BoundedMaxHeap(1);
  let worst = Infinity;
  let worstId = 0x7fffffff;

  const distance =
    dims === 6
      ? (p: number) => {
          const o = p * 6;
          const a = points[o]! - q[0]!;
          const b = points[o + 1]! - q[1]!;
          const c = points[o + 2]! - q[2]!;
          const e = points[o + 3]! - q[3]!;
          const f = points[o + 4]! - q[4]!;
          const g = points[o + 5]! - q[5]!;
          return a * a + b * b + c * c + e * e + f * f + g * g;
        }
      : (p: number) => {
          let d = 0;
          for (let j = 0, o = p * dims; j < dims; j++) {
            const x = points[o + j]! - q[j]!;
            d += x * x;
          }
          return d;
        };

  const scanLeaf = (lo: number, hi: number) => {
    for (let p = lo; p < hi; p++) {
      const d = distance(p);
      if (d > worst) continue;
      for (let s = start[p]!, e = start[p + 1]!; s < e; s++) {
        const id = ids[s]!;
        // Ids ascend within a point: once one loses the tie, every later one does too.
        if (!(d < worst || id < worstId)) break;
        heap.offer(d, id);
        if (heap.full) {
          worst = heap.topDistance;
          worstId = heap.topId;
        }
      }
    }
  };

  const lowerBound = () => {
    let b = 0;
    for (let j = 0; j < dims; j++) b += off[j]! * off[j]!;
    return b;
  };

  const search = (node: number, lo: number, hi: number): void => {
    if (hi - lo <= LEAF_SIZE) {
      scanLeaf(lo, hi);
      return;
    }
    const dim = splitDim[node]!;
    const diff = q[dim]! - splitVal[node]!;
    const mid = (lo + hi) >>> 1;
    const left = 2 * node + 1;
    const goLeft = diff < 0;
    if (goLeft) search(left, lo, mid);
    else search(left + 1, mid, hi);
    const far = goLeft ? left + 1 : left;
    const saved = off[dim]!;
    off[dim] = diff;
    const bound = lowerBound();
    if (bound < worst || (bound === worst && minId[far]! < worstId)) {
      if (goLeft) search(far, mid, hi);
      else search(far, lo, mid);
    }
    off[dim] = saved;
  };

  return (query, want) => {
    q = query;
    heap = new BoundedMaxHeap(want);
    worst = Infinity;
    worstId = 0x7fffffff;
    off.fill(0);
    if (count > 0) search(0, 0, count);
    return heap.sorted();
  };
}
