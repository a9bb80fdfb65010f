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
