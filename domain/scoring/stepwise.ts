/**
 * Model fits are generators that yield between chunks of work. The same fit then runs two ways: to the end
 * in one go (`runSteps`, for tests, the backtest and small corpora), or a chunk at a time with the event loop
 * free in between (`runStepsAsync`), so a worker refitting a 200k-row corpus keeps answering its scoring
 * activities. The generator stays pure: it never sees a timer, only the `yield`.
 */
export type Steps<T> = Generator<void, T, void>;

export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

export async function runStepsAsync<T>(steps: Steps<T>, pause: () => Promise<void>): Promise<T> {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    await pause();
  }
}

/** True every `every` iterations of a plain loop (`every` a power of two): where a long loop may yield. */
export const pauseEvery = (i: number, every: number) => (i & (every - 1)) === every - 1;

/** `xs.map(f)`, yielding every `piece` elements (a power of two). */
export function* mapInPieces<A, B>(xs: readonly A[], f: (x: A) => B, piece = 4096): Steps<B[]> {
  const out = new Array<B>(xs.length);
  for (let i = 0; i < xs.length; i++) {
    out[i] = f(xs[i]!);
    if (pauseEvery(i, piece)) yield;
  }
  return out;
}

/**
 * A stable sort of a copy of `xs` (the same order as `[...xs].sort(cmp)`), yielding every ~`piece` comparisons'
 * worth of work: runs of `piece` elements are sorted one per step, then merged bottom-up a piece at a time. Sorting
 * a 1M-row corpus in one `Array.prototype.sort` holds the event loop for over a second.
 */
export function* sortInPieces<T>(xs: readonly T[], cmp: (a: T, b: T) => number, piece = 1 << 13): Steps<T[]> {
  const n = xs.length;
  let from = new Array<T>(n);
  for (let lo = 0; lo < n; lo += piece) {
    const run = xs.slice(lo, lo + piece).sort(cmp);
    for (let i = 0; i < run.length; i++) from[lo + i] = run[i]!;
    yield;
  }
  let to = new Array<T>(n);
  for (let width = piece; width < n; width *= 2) {
    let done = 0;
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let i = lo;
      let j = mid;
      for (let k = lo; k < hi; k++) {
        // `<= 0` takes the left element on ties: stable.
        to[k] = j >= hi || (i < mid && cmp(from[i]!, from[j]!) <= 0) ? from[i++]! : from[j++]!;
        if (++done === piece) {
          done = 0;
          yield;
        }
      }
    }
    [from, to] = [to, from];
  }
  return from;
}
