import { decideRestart, DEFAULT_RESTART_POLICY, formatDelay, NO_HISTORY, type RestartHistory } from '../../../platform/restart-policy';

const p = DEFAULT_RESTART_POLICY;

/** Exits `n` times, each after `upForMs` of running, `gapMs` apart; returns the decisions. */
function exits(n: number, upForMs: number, gapMs: number, start = 1_000_000) {
  let h: RestartHistory = NO_HISTORY;
  const out = [];
  for (let i = 0; i < n; i++) {
    const d = decideRestart(h, upForMs, start + i * gapMs, p);
    h = d.history;
    out.push(d);
  }
  return out;
}

describe('restart policy', () => {
  it('restarts fast the first time, then backs off exponentially up to the cap', () => {
    const ds = exits(4, 100, 20_000);
    expect(ds.map((d) => d.delayMs)).toEqual([500, 1000, 2000, 4000]);
    expect(ds.every((d) => !d.crashLoop)).toBe(true);
    expect(exits(10, 100, 70_000).at(-1)!.delayMs).toBe(p.maxMs);
  });

  it('starts the backoff again after a run that stayed up', () => {
    const [a, b] = exits(2, 100, 1000);
    expect(b!.delayMs).toBe(1000);
    const after = decideRestart(b!.history, p.stableAfterMs, 1_000_000 + 60_000, p);
    expect(after.delayMs).toBe(p.initialMs);
    expect(a!.delayMs).toBe(p.initialMs);
  });

  it('calls five exits within a minute a crash loop and slows down to the crash-loop interval', () => {
    const ds = exits(6, 100, 1000);
    expect(ds.map((d) => d.crashLoop)).toEqual([false, false, false, false, true, true]);
    expect(ds[4]!.recentExits).toBe(5);
    expect(ds[4]!.delayMs).toBe(p.crashLoop.backoffMs);
  });

  it('forgets exits older than the window', () => {
    // Five exits, but spread over more than a minute: never five inside one window.
    const ds = exits(8, 100, 16_000);
    expect(ds.some((d) => d.crashLoop)).toBe(false);
    expect(Math.max(...ds.map((d) => d.recentExits))).toBe(4);
  });

  it('reads delays the way people say them', () => {
    expect([formatDelay(500), formatDelay(2000), formatDelay(1500), formatDelay(30_000)]).toEqual(['0.5 s', '2 s', '1.5 s', '30 s']);
  });
});
