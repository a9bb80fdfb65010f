/**
 * Pieces both k-NN indexes share, so they agree bit for bit: the query and row checks, the z-scoring, and
 * the bounded heap that keeps the k smallest (squared distance, id) pairs.
 */

/** Per-feature mean and standard deviation the rows and queries are z-scored with (fitted in knn-index.ts). */
export type Scaling = { mean: readonly number[]; std: readonly number[] };

export function assertVector(v: ArrayLike<number>, dims: number, what: string): void {
  if (v.length !== dims) throw new RangeError(`${what}: expected ${dims} features, got ${v.length}`);
  for (let j = 0; j < dims; j++) if (!Number.isFinite(v[j])) throw new RangeError(`${what}: feature ${j} is not finite (${v[j]})`);
}

/** Writes the z-scored `v` into `out` at `offset`; both indexes use this one expression. */
export function zScoreInto(v: ArrayLike<number>, sc: Scaling, dims: number, out: Float64Array, offset: number): void {
  for (let j = 0; j < dims; j++) out[offset + j] = (v[j]! - sc.mean[j]!) / sc.std[j]!;
}

/**
 * Max-heap of the k smallest squared distances seen so far (root = the current k-th nearest). Order is by
 * (distance, id): at equal distance the higher id is "greater", so it is evicted before a lower one.
 */
export class BoundedMaxHeap {
  private readonly d: Float64Array;
  private readonly id: Int32Array;
  private n = 0;

  constructor(readonly capacity: number) {
    this.d = new Float64Array(capacity);
    this.id = new Int32Array(capacity);
  }

  /** Empties the heap for the next query, keeping its arrays. */
  clear(): void {
    this.n = 0;
  }

  get full(): boolean {
    return this.n === this.capacity;
  }

  get topDistance(): number {
    return this.d[0]!;
  }

  get topId(): number {
    return this.id[0]!;
  }

  /** Adds (d, id) while not full; once full, replaces the root (the caller checked it is smaller). */
  offer(d: number, id: number): void {
    if (!this.full) {
      let i = this.n++;
      this.d[i] = d;
      this.id[i] = id;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!this.greater(i, p)) break;
        this.swap(i, p);
        i = p;
      }
      return;
    }
    this.d[0] = d;
    this.id[0] = id;
    this.siftDown(0);
  }

  private siftDown(from: number): void {
    for (let i = from; ;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.n && this.greater(l, m)) m = l;
      if (r < this.n && this.greater(r, m)) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }

  /**
   * Empties the heap into `ids` / `d2` nearest first (the order of `sorted()`: (distance, id) is a total order) and
   * returns the count. Pops the root into the back of the arrays, so no object is built per neighbour.
   */
  drainAscending(ids: Int32Array, d2: Float64Array): number {
    const count = this.n;
    while (this.n > 0) {
      const last = --this.n;
      ids[last] = this.id[0]!;
      d2[last] = this.d[0]!;
      if (last === 0) break;
      this.d[0] = this.d[last]!;
      this.id[0] = this.id[last]!;
      this.siftDown(0);
    }
    return count;
  }

  sorted(): { id: number; d: number }[] {
    const out: { id: number; d: number }[] = [];
    for (let i = 0; i < this.n; i++) out.push({ id: this.id[i]!, d: this.d[i]! });
    return out.sort((a, b) => a.d - b.d || a.id - b.id);
  }

  private greater(a: number, b: number): boolean {
    return this.d[a]! > this.d[b]! || (this.d[a] === this.d[b] && this.id[a]! > this.id[b]!);
  }

  private swap(a: number, b: number): void {
    const d = this.d[a]!;
    this.d[a] = this.d[b]!;
    this.d[b] = d;
    const id = this.id[a]!;
    this.id[a] = this.id[b]!;
    this.id[b] = id;
  }
}
