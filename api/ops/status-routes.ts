import { Router } from 'express';
import type { HeartbeatStore } from '../../db/ops/heartbeat-store';
import { DAEMONS, daemonState, staleAfterS } from '../../domain/ops/daemons';
import type { LatencyWindow } from '../../domain/ops/latency-window';
import { sendPreparedRead } from '../http/prepared-body';
import { createPreparedRead } from '../http/prepared-read';
import type { PublicReads } from '../http/public-reads';

export type StatusDeps = {
  heartbeatStore: HeartbeatStore;
  liveLatency: LatencyWindow;
  startedAt: Date;
  version: string;
  heartbeatIntervalS: number;
  watchdogIntervalS: number;
  expectedDaemons: readonly string[];
  now: () => Date;
  readCacheTtlMs: number;
  publicReads: PublicReads;
};

const CACHE_CONTROL = 'no-store';

const round = (x: number | null) => (x === null ? null : Math.round(x * 1000) / 1000);

export function statusRoutes(d: StatusDeps): Router {
  const r = Router();
  // Built at most once per `readCacheTtlMs` (uptime and latencies as of then).
  const status = createPreparedRead(
    async () => {
      const now = d.now();
      const latest = new Map((await d.heartbeatStore.latest()).map((h) => [h.name, h]));
      const daemons = DAEMONS.map((name) => {
        const hb = latest.get(name);
        const staleAfter = staleAfterS(name, d.heartbeatIntervalS, d.watchdogIntervalS);
        const lastMs = hb ? hb.lastSeenAt.getTime() : null;
        return {
          name,
          state: daemonState(lastMs, now.getTime(), staleAfter),
          instance: hb?.instance ?? null,
          last_seen_at: hb ? hb.lastSeenAt.toISOString() : null,
          age_s: lastMs === null ? null : Math.max(0, (now.getTime() - lastMs) / 1000),
          stale_after_s: staleAfter,
        };
      });
      const degraded = daemons.some((x) => (d.expectedDaemons.includes(x.name) || x.name === 'scheduler') && x.state !== 'up');
      const lat = d.liveLatency.summary(now.getTime());
      return {
        status: degraded ? 'degraded' : 'ok',
        version: d.version,
        started_at: d.startedAt.toISOString(),
        uptime_s: (now.getTime() - d.startedAt.getTime()) / 1000,
        live_latency: {
          route: '/api/live',
          window_s: Math.round(d.liveLatency.windowMs / 1000),
          count: lat.count,
          p50_ms: round(lat.p50),
          p90_ms: round(lat.p90),
          p99_ms: round(lat.p99),
        },
        daemons,
      };
    },
    { ttlMs: d.readCacheTtlMs },
  );
  d.publicReads.register('/api/status', status, CACHE_CONTROL);
  r.get('/api/status', async (req, res) => sendPreparedRead(req, res, await status.get(), CACHE_CONTROL));
  return r;
}
