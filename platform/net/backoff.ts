export type BackoffOptions = { baseMs: number; maxMs: number };

/**
 * Delay before retry number `attempt` (0 for the first): exponential from `baseMs`, capped at `maxMs`, with
 * "equal jitter" — half the delay fixed, half random — so a fleet that lost the same server does not come back in
 * lockstep, yet no client retries immediately.
 */
export function backoffDelayMs(attempt: number, o: BackoffOptions, random: () => number = Math.random): number {
  const ceiling = Math.min(o.maxMs, o.baseMs * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** A sleep that `stop` can cut short (resolves false when cut). */
export function cancellableSleep(ms: number): { done: Promise<boolean>; cancel: () => void } {
  let cancel = () => {};
  const done = new Promise<boolean>((resolve) => {
    const t = setTimeout(() => resolve(true), ms);
    cancel = () => {
      clearTimeout(t);
      resolve(false);
    };
  });
  return { done, cancel };
}
