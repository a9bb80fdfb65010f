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
