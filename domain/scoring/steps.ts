/**
 * Long pure computations (building an index over a million rows, scoring a calibration slice) are written
 * as generators that yield between bounded pieces of work. Run synchronously they are plain functions;
 * an async driver (platform/time-slice.ts) can instead hand the event loop back between pieces, so a refit
 * in a process that also scores never stalls scoring for more than one piece. Pure code stays pure: it
 * only says where it may pause, never when.
 */
export type Steps<T> = Generator<void, T, void>;

export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** Yields every `every` iterations of a plain loop; `every` must be a power of two. */
export const pauseEvery = (i: number, every: number) => (i & (every - 1)) === every - 1;

/** `xs.map(f)`, pausing every `piece` elements (a power of two). */
export function* mapInPieces<A, B>(xs: readonly A[], f: (x: A) => B, piece = 4096): Steps<B[]> {
  const out = new Array<B>(xs.length);
  for (let i = 0; i < xs.length; i++) {
    out[i] = f(xs[i]!);
    if (pauseEvery(i, piece)) yield;
  }
  return out;
}
