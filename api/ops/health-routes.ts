import { Router } from 'express';
import type { WatchdogStore } from '../../db/ops/watchdog-store';
import { usedPct } from '../../domain/ops/watchdog-rules';

/** A tick older than this means the watchdog schedule or the worker has stopped. */
const STALE_TICK_S = 180;

export function healthRoutes(d: { watchdogStore: WatchdogStore; now: () => Date }): Router {
  const r = Router();
  r.get('/api/health', async (_req, res) => {
    const now = d.now();
    const [tick, alerts] = await Promise.all([d.watchdogStore.latestTick(), d.watchdogStore.openAlerts()]);
    const ageS = tick ? Math.max(0, (now.getTime() - tick.at.getTime()) / 1000) : null;
    const status = !tick ? 'unknown' : ageS! > STALE_TICK_S ? 'stale' : alerts.length ? 'degraded' : 'ok';
    res.set('Cache-Control', 'no-store').json({
      status,
      checked_at: now.toISOString(),
      tick: tick ? {
        id: tick.id,
        at: tick.at.toISOString(),
        age_s: ageS,
        disk: { path: tick.disk.path, total_bytes: tick.disk.totalBytes, free_bytes: tick.disk.freeBytes, used_pct: usedPct(tick.disk.totalBytes, tick.disk.freeBytes) },
        memory: {
          total_bytes: tick.memory.totalBytes,
          available_bytes: tick.memory.availableBytes,
          used_pct: usedPct(tick.memory.totalBytes, tick.memory.availableBytes),
        },
        stuck_workflows: { count: tick.stuck.count, by_type: tick.stuck.byType },
        stale_heartbeats: tick.staleHeartbeats,
      } : null,
      alerts: alerts.map((a) => ({ code: a.code, severity: a.severity, message: a.message, raised_at: a.raisedAt.toISOString(), value: a.value, threshold: a.threshold })),
    });
  });
  return r;
}
