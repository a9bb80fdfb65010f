import { evaluateWatchdog, usedPct, type WatchdogObservation } from '../../../domain/ops/watchdog-rules';

const healthy: WatchdogObservation = {
  disk: { path: '/', totalBytes: 100, freeBytes: 50 },
  memory: { totalBytes: 100, availableBytes: 60 },
  stuck: { count: 0, byType: {} },
  staleHeartbeats: [],
};

describe('watchdog rules', () => {
  it('raises nothing on a healthy host', () => {
    expect(evaluateWatchdog(healthy)).toEqual([]);
  });

  it('warns on a filling disk and turns critical near full', () => {
    expect(evaluateWatchdog({ ...healthy, disk: { path: '/', totalBytes: 100, freeBytes: 14 } })).toEqual([
      expect.objectContaining({ code: 'disk_low', severity: 'warning', value: 86, threshold: 85 }),
    ]);
    expect(evaluateWatchdog({ ...healthy, disk: { path: '/', totalBytes: 100, freeBytes: 4 } })).toEqual([
      expect.objectContaining({ code: 'disk_low', severity: 'critical', threshold: 95 }),
    ]);
  });

  it('flags memory pressure, stuck workflows and each stale daemon', () => {
    const codes = evaluateWatchdog({
      ...healthy,
      memory: { totalBytes: 100, availableBytes: 5 },
      stuck: { count: 2, byType: { mintLifecycle: 2, watchdogTick: 0 } },
      staleHeartbeats: ['worker', 'ingest'],
    }).map((a) => a.code);
    expect(codes).toEqual(['memory_high', 'stuck_workflows', 'heartbeat_stale:worker', 'heartbeat_stale:ingest']);
  });

  it('computes used percentage safely', () => {
    expect(usedPct(0, 0)).toBe(0);
    expect(usedPct(3, 1)).toBe(66.7);
  });
});
