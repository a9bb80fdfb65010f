import { pauseEvery, type Steps } from './stepwise';

/**
 * Groups rows with identical vectors into one point carrying the row ids in ascending order, in O(n) with
 * an open-addressing hash table over the coordinates' bits (typed arrays only: no per-row objects at 1M).
 * The caller hands `z` over: it may become the returned `points`, which the k-d tree then reorders.
 * Equality is `===` on every coordinate; -0 and 0 hash apart and simply stay two points at equal distance,
 * which changes nothing in an answer.
 */
export type PointGroups = {
  /** Number of distinct vectors. */
  count: number;
  /** Distinct vectors, row-major, in order of their first row. */
  points: Float64Array;
  /** Row ids of point p: ids[start[p] .. start[p+1]), ascending. */
  start: Int32Array;
  ids: Int32Array;
};

const PIECE = 1 << 14;

export function* groupDuplicates(z: Float64Array, n: number, dims: number): Steps<PointGroups> {
  const words = new Uint32Array(z.buffer, z.byteOffset, n * dims * 2);
  let cap = 2;
  while (cap < 2 * n) cap *= 2;
  const mask = cap - 1;
  const table = new Int32Array(cap).fill(-1);
  const firstRow = new Int32Array(n);
  const groupOf = new Int32Array(n);
  let count = 0;
  for (let i = 0; i < n; i++) {
    let slot = hashWords(words, i * dims * 2, dims * 2) & mask;
    for (;;) {
      const g = table[slot]!;
      if (g === -1) {
        table[slot] = count;
        firstRow[count] = i;
        groupOf[i] = count++;
        break;
      }
      if (sameRow(z, firstRow[g]! * dims, i * dims, dims)) {
        groupOf[i] = g;
        break;
      }
      slot = (slot + 1) & mask;
    }
    if (pauseEvery(i, PIECE)) yield;
  }

  const start = new Int32Array(count + 1);
  yield;
  for (let i = 0; i < n; i++) start[groupOf[i]! + 1]!++;
  for (let g = 0; g < count; g++) start[g + 1]! += start[g]!;
  const fill = start.slice(0, count);
  const ids = new Int32Array(n);
  // Rows in id order, so each group's ids come out ascending.
  yield;
  for (let i = 0; i < n; i++) ids[fill[groupOf[i]!]!++] = i;
  yield;
  // No duplicates (the common case for continuous features): the rows already are the points.
  const points = count === n ? z : new Float64Array(count * dims);
  if (points !== z) for (let g = 0; g < count; g++) for (let j = 0; j < dims; j++) points[g * dims + j] = z[firstRow[g]! * dims + j]!;
  return { count, points, start, ids };
}

function sameRow(z: Float64Array, a: number, b: number, dims: number): boolean {
  for (let j = 0; j < dims; j++) if (z[a + j] !== z[b + j]) return false;
  return true;
}

/** MurmurHash3's 32-bit block mixing and finaliser over `len` words. */
function hashWords(w: Uint32Array, from: number, len: number): number {
  let h = 0x9747b28c;
  for (let i = from; i < from + len; i++) {
    let k = Math.imul(w[i]!, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    h ^= Math.imul(k, 0x1b873593);
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  h ^= len * 4;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
