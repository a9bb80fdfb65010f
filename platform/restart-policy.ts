/**
 * When a supervised process that died is started again: exponential backoff from a fast first restart, reset
 * once a run has stayed up for a while, and a crash loop (too many exits within a window) slowed down to a fixed,
 * longer interval. Never "give up": a service that cannot stay up is retried and reported, not abandoned.
 */
export type RestartPolicy = {
  /** Delay before the first restart after a stable run. */
  initialMs: number;
  factor: number;
  maxMs: number;
  /** A run that lasted this long counts as stable: the next exit starts the backoff from `initialMs` again. */
  stableAfterMs: number;
  /** `exits` exits within `windowMs` is a crash loop; while in one, restarts wait at least `backoffMs`. */
  crashLoop: { exits: number; windowMs: number; backoffMs: number };
};

export const DEFAULT_RESTART_POLICY: RestartPolicy = {
  initialMs: 500,
  factor: 2,
  maxMs: 8000,
  stableAfterMs: 20_000,
  crashLoop: { exits: 5, windowMs: 60_000, backoffMs: 30_000 },
};

/** What the supervisor remembers of one service's recent exits. */
export type RestartHistory = { quickExits: number; exitTimes: readonly number[] };
export const NO_HISTORY: RestartHistory = { quickExits: 0, exitTimes: [] };

export type RestartDecision = {
  delayMs: number;
  /** Exits within the crash-loop window, this one included. */
  recentExits: number;
  crashLoop: boolean;
  history: RestartHistory;
};

/**
 * The decision after an exit (or a failed start) at `now`; `upForMs` is how long that run had been up (0 when it
 * never came up).
 */
export function decideRestart(history: RestartHistory, upForMs: number, now: number, p: RestartPolicy = DEFAULT_RESTART_POLICY): RestartDecision {
  const quick = upForMs >= p.stableAfterMs ? 0 : history.quickExits;
  const exitTimes = [...history.exitTimes.filter((t) => now - t < p.crashLoop.windowMs), now];
  const crashLoop = exitTimes.length >= p.crashLoop.exits;
  const backoff = Math.min(p.initialMs * p.factor ** quick, p.maxMs);
  return {
    delayMs: crashLoop ? Math.max(backoff, p.crashLoop.backoffMs) : backoff,
    recentExits: exitTimes.length,
    crashLoop,
    history: { quickExits: quick + 1, exitTimes },
  };
}

/** "0.5 s", "2 s", "30 s": delays as people read them. */
export function formatDelay(ms: number): string {
  const s = ms / 1000;
  return `${s < 10 && !Number.isInteger(s) ? s.toFixed(1) : Math.round(s)} s`;
}
