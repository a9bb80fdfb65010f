import { LatencyWindow, percentile } from '../../../domain/ops/latency-window';
import { daemonState, staleAfterS } from '../../../domain/ops/daemons';

describe('latency window', () => {
  it('reports nearest-rank percentiles of recent samples only', () => {
    const w = new LatencyWindow(1000, 8);
    w.record(0, 500); // falls out of the window
    for (let i = 1; i <= 5; i++) w.record(2000, i);
    expect(w.summary(2500)).toEqual({ count: 5, p50: 3, p90: 5, p99: 5 });
  });

  it('keeps bounded memory: the oldest samples are overwritten', () => {
    const w = new LatencyWindow(10_000, 4);
    for (let i = 1; i <= 10; i++) w.record(100, i);
    expect(w.summary(100)).toMatchObject({ count: 4, p50: 8 });
  });

  it('has null percentiles with no samples', () => {
    expect(new LatencyWindow(1000).summary(0)).toEqual({ count: 0, p50: null, p90: null, p99: null });
    expect(percentile([], 50)).toBeNull();
  });
});

describe('daemon state', () => {
  it('is up, stale or never seen', () => {
    expect(daemonState(null, 0, 60)).toBe('never_seen');
    expect(daemonState(0, 59_000, 60)).toBe('up');
    expect(daemonState(0, 61_000, 60)).toBe('stale');
  });
  it('allows the scheduler three watchdog intervals', () => {
    expect(staleAfterS('scheduler', 15, 60)).toBe(180);
    expect(staleAfterS('worker', 15, 60)).toBe(60);
  });
});
