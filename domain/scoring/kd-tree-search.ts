import { BoundedMaxHeap } from './knn-heap';
import { LEAF_SIZE, type KdTree } from './kd-tree-build';

/**
 * The exact k-NN search over one k-d tree (kd-tree-build.ts); `q` is the z-scored query. Returns the `want`
 * nearest as (id, squared distance): the k smallest (squared distance, id) pairs, bit for bit the flat scan's.
 *
 * - Children are visited nearer box first, and a box is entered only while its lower bound can still beat the
 *   current k-th nearest. A box at exactly the k-th distance is still entered when it holds a lower id (ties go
 *   to the lower id).
 * - Pruning is exact in floating point, not just on paper: a box's bound sums, in the same order as the distance
 *   itself, per-coordinate gaps that round to at most the real coordinate differences (rounding is monotone and
 *   the box contains every point below it), so it never exceeds the distance computed for any point inside.
 * - Partial sums only grow, so a bound or a distance stops being summed as soon as it passes the k-th distance.
 * - One heap and no closures per query, and the answer goes into the caller's arrays: a query allocates nothing.
 */
/** Writes the `want` nearest into `ids` / `d2` (squared distances), nearest first, and returns how many it wrote. */
export type KdTreeSearch = (q: Float64Array, want: number, ids: Int32Array, d2: Float64Array) => number;

export function createKdTreeSearch(t: KdTree): KdTreeSearch {
  const { points, start, ids, count, dims, boxLo, boxHi, minId } = t;
  let q: Float64Array = new Float64Array(dims);
  let heap = new BoundedMaxHeap(1);
  let worst = Infinity;
  let worstId = 0x7fffffff;

  /** Squared distance from q to node's box, or any value above `worst` once it is certain to exceed it. */
  const boxBound = (node: number): number => {
    // The reassigned captured variables are read once into locals: read in the loop, each is a context load per
    // coordinate (a tenth of a query's time).
    const qq = q;
    const limit = worst;
    let b = 0;
    for (let j = 0, o = node * dims; j < dims; j++, o++) {
      const x = qq[j]!;
      const lo = boxLo[o]!;
      const hi = boxHi[o]!;
      const gap = x < lo ? lo - x : x > hi ? x - hi : 0;
      b += gap * gap;
      if (b > limit) return b;
    }
    return b;
  };

  const enters = (bound: number, node: number) => bound < worst || (bound === worst && minId[node]! < worstId);

  const scanLeaf = (lo: number, hi: number) => {
    const qq = q;
    const h = heap;
    let limit = worst;
    for (let p = lo; p < hi; p++) {
      let d = 0;
      for (let j = 0, o = p * dims; j < dims; j++) {
        const x = points[o + j]! - qq[j]!;
        d += x * x;
        if (d > limit) break;
      }
      if (d > limit) continue;
      for (let s = start[p]!, e = start[p + 1]!; s < e; s++) {
        const id = ids[s]!;
        // Ids ascend within a point: once one loses the tie, every later one does too.
        if (!(d < limit || id < worstId)) break;
        h.offer(d, id);
        if (h.full) {
          limit = worst = h.topDistance;
          worstId = h.topId;
        }
      }
    }
  };

  const search = (node: number, lo: number, hi: number): void => {
    if (hi - lo <= LEAF_SIZE) {
      scanLeaf(lo, hi);
      return;
    }
    const mid = (lo + hi) >>> 1;
    const left = 2 * node + 1;
    const bl = boxBound(left);
    const br = boxBound(left + 1);
    if (bl <= br) {
      if (enters(bl, left)) search(left, lo, mid);
      if (enters(br, left + 1)) search(left + 1, mid, hi);
    } else {
      if (enters(br, left + 1)) search(left + 1, mid, hi);
      if (enters(bl, left)) search(left, lo, mid);
    }
  };

  return (query, want, outIds, outD2) => {
    q = query;
    if (want !== heap.capacity) heap = new BoundedMaxHeap(want);
    else heap.clear();
    worst = Infinity;
    worstId = 0x7fffffff;
    if (count > 0) search(0, 0, count);
    return heap.drainAscending(outIds, outD2);
  };
}
