import type { PointGroups } from './point-groups';
import { pauseEvery, runSteps, type Steps } from './stepwise';

/**
 * The k-d tree behind kd-tree-index.ts, built in pieces (every yield is a few milliseconds of work at most).
 *
 * - Median splits on the coordinate of largest variance among the node's points (splitDimension says why not the
 *   widest); leaves of at most LEAF_SIZE points, stored contiguously in tree order so a leaf scan reads one run of
 *   memory. The tree is implicit (node i has children 2i+1, 2i+2; a node's point range follows from halving), so
 *   per node only the split, its bounding box and the smallest id below it are stored.
 * - Every node (leaves included) keeps the bounding box of its points. With twenty-odd learned features a split
 *   plane bounds one coordinate of a far subtree; the box bounds all of them, which is what lets a search prune
 *   in that many dimensions. Boxes are Float32, rounded outwards, so they still contain every point (half the
 *   memory of Float64: about 12 MB at 700k distinct 23-feature points).
 */
export const LEAF_SIZE = 16;

export type KdTree = {
  /** Unique points in tree order, row-major. */
  points: Float64Array;
  /** Ids of point p: ids[start[p] .. start[p+1]), ascending. */
  start: Int32Array;
  ids: Int32Array;
  count: number;
  dims: number;
  /** Node n's box is boxLo/boxHi[n·dims .. (n+1)·dims). */
  boxLo: Float32Array;
  boxHi: Float32Array;
  /** Smallest row id in each node's subtree (leaves included). */
  minId: Int32Array;
};

/** Subtrees up to this many points are split in one uninterrupted piece. */
const PIECE_POINTS = 1 << 12;
const ROW_PIECE = 1 << 14;
const BOX_PIECE = 1 << 10;

/** Depth at which every node holds at most LEAF_SIZE points (halving sizes: ceil(count / 2^depth)). */
function leafDepth(count: number): number {
  let depth = 0;
  while (Math.ceil(count / 2 ** depth) > LEAF_SIZE) depth++;
  return depth;
}

export function* buildKdTreeSteps(g: PointGroups, dims: number): Steps<KdTree> {
  const { count } = g;
  const depth = leafDepth(count);
  // Points move into tree order as they are partitioned (rows swapped in place, `perm` tracking where each
  // came from), so every pass reads memory sequentially.
  const points = g.points;
  const perm = new Int32Array(count);
  for (let i = 0; i < count; i++) perm[i] = i;

  const split = (lo: number, hi: number): number => {
    const mid = (lo + hi) >>> 1;
    selectNth(points, dims, splitDimension(points, lo, hi, dims), perm, lo, hi - 1, mid);
    return mid;
  };
  const buildSubtree = (lo: number, hi: number): void => {
    if (hi - lo <= LEAF_SIZE) return;
    const mid = split(lo, hi);
    buildSubtree(lo, mid);
    buildSubtree(mid, hi);
  };
  function* buildPieces(lo: number, hi: number): Steps<void> {
    if (hi - lo <= PIECE_POINTS) {
      buildSubtree(lo, hi);
      yield;
      return;
    }
    const dim = splitDimension(points, lo, hi, dims);
    yield;
    const mid = (lo + hi) >>> 1;
    yield* selectNthSteps(points, dims, dim, perm, lo, hi - 1, mid);
    yield* buildPieces(lo, mid);
    yield* buildPieces(mid, hi);
  }
  yield* buildPieces(0, count);

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

  const nodes = 2 ** (depth + 1) - 1;
  const boxLo = new Float32Array(nodes * dims);
  const boxHi = new Float32Array(nodes * dims);
  const minId = new Int32Array(nodes);
  // Leaves from their points, then each level of internal nodes from its children, bottom up.
  const firstLeaf = 2 ** depth - 1;
  for (let leaf = 0; leaf < 2 ** depth; leaf++) {
    const node = firstLeaf + leaf;
    const [lo, hi] = nodeRange(count, depth, leaf);
    leafBox(points, dims, lo, hi, boxLo, boxHi, node * dims);
    let m = 0x7fffffff;
    for (let p = lo; p < hi; p++) m = Math.min(m, ids[start[p]!]!);
    minId[node] = m;
    if (pauseEvery(leaf, BOX_PIECE)) yield;
  }
  for (let node = firstLeaf - 1; node >= 0; node--) {
    const l = 2 * node + 1;
    for (let j = 0; j < dims; j++) {
      boxLo[node * dims + j] = Math.min(boxLo[l * dims + j]!, boxLo[(l + 1) * dims + j]!);
      boxHi[node * dims + j] = Math.max(boxHi[l * dims + j]!, boxHi[(l + 1) * dims + j]!);
    }
    minId[node] = Math.min(minId[l]!, minId[l + 1]!);
    if (pauseEvery(node, BOX_PIECE)) yield;
  }
  return { points, start, ids, count, dims, boxLo, boxHi, minId };
}

/** The point range [lo, hi) of leaf number `leaf` (0-based, left to right) at `depth`, by repeated halving. */
function nodeRange(count: number, depth: number, leaf: number): [number, number] {
  let lo = 0;
  let hi = count;
  for (let level = depth - 1; level >= 0; level--) {
    const mid = (lo + hi) >>> 1;
    if ((leaf >> level) & 1) lo = mid;
    else hi = mid;
  }
  return [lo, hi];
}

/** The box of points lo..hi-1; an empty leaf gets an empty box (lo > hi), which no bound ever passes through. */
function leafBox(points: Float64Array, dims: number, lo: number, hi: number, boxLo: Float32Array, boxHi: Float32Array, at: number): void {
  for (let j = 0; j < dims; j++) {
    let min = Infinity;
    let max = -Infinity;
    for (let p = lo; p < hi; p++) {
      const x = points[p * dims + j]!;
      if (x < min) min = x;
      if (x > max) max = x;
    }
    boxLo[at + j] = float32Down(min);
    boxHi[at + j] = float32Up(max);
  }
}

const f32 = new Float32Array(1);
const f32bits = new Int32Array(f32.buffer);

/** The largest Float32 value ≤ x (±Infinity stays). */
export function float32Down(x: number): number {
  f32[0] = x;
  if (f32[0]! <= x) return f32[0]!;
  // Rounded up: step one ulp towards -Infinity (the bit pattern moves away from zero for negatives).
  if (f32[0]! > 0) f32bits[0]!--;
  else if (f32[0]! < 0) f32bits[0]!++;
  else f32[0] = -1.401298464324817e-45;
  return f32[0]!;
}

/** The smallest Float32 value ≥ x. */
export const float32Up = (x: number): number => -float32Down(-x);

/**
 * The coordinate of largest variance over rows lo..hi-1. Not the widest range: launch features are clusters of
 * near-copies with a few far outliers, and a range is set by its outliers, so splitting on it kept cutting the same
 * sparse tails while the clusters stayed mixed in one box. Splitting on variance separates clusters, and the search
 * (measured at 1M resampled launches, 23 z-scored features, k = 100) does about a third less work at p99. Any split keeps the
 * search exact; this only decides how much of the tree it prunes. Sums run on coordinates shifted by the first row,
 * so a large common offset does not cancel the variance away.
 */
function splitDimension(points: Float64Array, lo: number, hi: number, dims: number): number {
  const sum = new Float64Array(dims);
  const sq = new Float64Array(dims);
  const first = lo * dims;
  for (let o = first, end = hi * dims; o < end; o += dims) {
    for (let j = 0; j < dims; j++) {
      const x = points[o + j]! - points[first + j]!;
      sum[j]! += x;
      sq[j]! += x * x;
    }
  }
  const n = hi - lo;
  let best = 0;
  let bestVariance = -Infinity;
  for (let j = 0; j < dims; j++) {
    const variance = sq[j]! / n - (sum[j]! / n) ** 2;
    if (variance > bestVariance) {
      bestVariance = variance;
      best = j;
    }
  }
  return best;
}

/**
 * Reorders the rows l..r (inclusive) of `points` (and `perm` alongside) so row k holds the row of rank k by
 * coordinate `dim`, rows with smaller-or-equal coordinates before it and greater-or-equal after (Wirth's
 * selection with a median-of-three pivot; Hoare swaps keep runs of equal coordinates balanced).
 */
export function selectNth(points: Float64Array, dims: number, dim: number, perm: Int32Array, l: number, r: number, k: number): void {
  runSteps(selectNthSteps(points, dims, dim, perm, l, r, k));
}

/** `selectNth`, pausing every ~ROW_PIECE rows passed: the first partitions of a 1M-row tree are long. */
function* selectNthSteps(points: Float64Array, dims: number, dim: number, perm: Int32Array, l: number, r: number, k: number): Steps<void> {
  const key = (row: number) => points[row * dims + dim]!;
  let work = 0;
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
      if (++work === ROW_PIECE) {
        work = 0;
        yield;
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
