/**
 * Runs `task` now and again after the delay it returns (its own interval, or a longer one after a failure), never
 * two at once, and not while the page is hidden: a background tab polls nothing and catches up when shown.
 * `now()` runs it at once (after a setting changed); a run already under way is followed by one more.
 */
export function poll(task: () => Promise<number>): { now(): void } {
  let timer: number | undefined;
  let running = false;
  let again = false;
  const run = async () => {
    if (timer !== undefined) window.clearTimeout(timer);
    timer = undefined;
    if (running) return void (again = true);
    if (document.hidden) return;
    running = true;
    let nextMs = 10_000;
    try {
      nextMs = await task();
    } finally {
      running = false;
      timer = window.setTimeout(run, again ? 0 : nextMs);
      again = false;
    }
  };
  document.addEventListener('visibilitychange', () => {
    if (!document.hidden) void run();
  });
  void run();
  return { now: () => void run() };
}

/** Doubling delay after consecutive failures, from `baseMs` up to `maxMs`. */
export function backoff(baseMs: number, maxMs: number): { ok(): number; failed(): number } {
  let failures = 0;
  return {
    ok: () => ((failures = 0), baseMs),
    failed: () => Math.min(maxMs, baseMs * 2 ** ++failures),
  };
}
