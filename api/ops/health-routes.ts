import { Router } from 'express';
import type { WatchdogStore } from '../../db/ops/watchdog-store';
import type { CompositeStatus } from '../../db/signals/composite-status-reader';
import { usedPct } from '../../domain/ops/watchdog-rules';
import type { ModelFit } from '../../db/scoring/model-fit-store';
import type { FeedStatus } from '../../db/ops/feed-status-reader';
import type { ActiveInputs } from '../../domain/ops/active-inputs';
import { healthReasons } from '../../domain/ops/health-reasons';
import { freshness, type LiveSnapshotCache } from '../live/live-snapshot-cache';
import { publicReason, withTimeout, type DependencyProbe, type ProbeState } from '../http/dependency-probe';
import { sendPreparedRead } from '../http/prepared-body';
import { createPreparedRead } from '../http/prepared-read';
import type { PublicReads } from '../http/public-reads';

/** A tick older than this means the watchdog schedule or the worker has stopped. */
const STALE_TICK_S = 180;
/** /api/health answers within about this long whatever is down: what it cannot read in time it answers from memory. */
const READ_TIMEOUT_MS = 1500;
/** The ingest daemon reports each feed every 30 s: three missed reports and the feed is taken for down. */
const FEED_STALE_AFTER_S = 90;

type Tick = Awaited<ReturnType<WatchdogStore['latestTick']>>;
type Alerts = Awaited<ReturnType<WatchdogStore['openAlerts']>>;

export type HealthDeps = {
  watchdogStore: WatchdogStore;
  liveCache: LiveSnapshotCache;
  liveStaleAfterS: number;
  /** Absent when this API runs without Temporal. */
  temporalProbe: DependencyProbe | undefined;
  /** Whether composite crosses can be made (a fresh SOL price), and what was withheld. */
  compositeStatus: (now: Date) => Promise<CompositeStatus>;
  modelFits: () => Promise<ModelFit[]>;
  feedStatus: () => Promise<FeedStatus[]>;
  /** Which inputs this deployment runs on and which are simulated. */
  inputs: ActiveInputs;
  startedAt: Date;
  now: () => Date;
  readCacheTtlMs: number;
  publicReads: PublicReads;
};

const CACHE_CONTROL = 'no-store';

/**
 * `GET /api/health` always answers 200 while the process runs: `status` says how healthy the service is, from
 * the watchdog's newest tick, the API's own view of its dependencies and what it publishes (`reasons` says in
 * words what is withheld or stale: no SOL/USD price, a stale live list, a warming model, a feed down, …). With Postgres down it answers from
 * memory (the last tick and alerts it read). The answer is built at most once per `readCacheTtlMs` (its
 * `checked_at` says when). `GET /livez` touches nothing: the liveness probe (outside the API's
 * operations, like /docs).
 */
export function healthRoutes(d: HealthDeps): Router {
  const r = Router();
  let remembered: { tick: Tick; alerts: Alerts } | undefined;

  const health = createPreparedRead(
    async () => {
      const now = d.now();
      const [reads, temporal, live, composite, models, feeds] = await Promise.all([
        withTimeout(Promise.all([d.watchdogStore.latestTick(), d.watchdogStore.openAlerts()]), READ_TIMEOUT_MS, 'health read').then(
          ([tick, alerts]) => ({ ok: true as const, tick, alerts }),
          (e: unknown) => ({ ok: false as const, reason: publicReason(e) }),
        ),
        d.temporalProbe?.check(),
        withTimeout(d.liveCache.get(), READ_TIMEOUT_MS, 'live snapshot').catch(() => d.liveCache.peek()),
        withTimeout(d.compositeStatus(now), READ_TIMEOUT_MS, 'composite status').catch(() => undefined),
        withTimeout(d.modelFits(), READ_TIMEOUT_MS, 'model fits').catch(() => undefined),
        withTimeout(d.feedStatus(), READ_TIMEOUT_MS, 'feed status').catch(() => undefined),
      ]);
      if (reads.ok) remembered = { tick: reads.tick, alerts: reads.alerts };
      const postgres: ProbeState = reads.ok ? { state: 'up', checkedAt: now, error: null } : { state: 'down', checkedAt: now, error: reads.reason };
      const { tick, alerts } = remembered ?? { tick: undefined, alerts: [] };

      const liveFresh = live ? freshness(live, now, d.liveStaleAfterS) : undefined;
      const liveState = !liveFresh ? 'missing' : liveFresh.stale ? 'stale' : 'fresh';
      const dependencyDown = postgres.state === 'down' || temporal?.state === 'down' || liveState === 'stale';
      const ageS = tick ? Math.max(0, (now.getTime() - tick.at.getTime()) / 1000) : null;
      const reasons = healthReasons({
        postgres,
        temporal,
        live: { state: liveState, ageS: liveFresh?.ageS ?? null, staleAfterS: d.liveStaleAfterS, preRestart: liveFresh?.preRestart ?? false },
        composite,
        models,
        feeds: feeds?.map((f) => ({ name: f.name, connected: f.connected, reportedAgoS: Math.max(0, (now.getTime() - f.reportedAt.getTime()) / 1000) })),
        feedStaleAfterS: FEED_STALE_AFTER_S,
        tick: ageS === null ? null : { ageS, staleAfterS: STALE_TICK_S },
        alerts,
      });
      // `ok` only when nothing published is withheld or stale: every reason, not just a dependency, degrades.
      const status = dependencyDown ? 'degraded' : !tick ? 'unknown' : ageS! > STALE_TICK_S ? 'stale' : reasons.length ? 'degraded' : 'ok';

      return {
        status,
        reasons,
        inputs: d.inputs,
        checked_at: now.toISOString(),
        tick: tick
          ? {
              id: tick.id,
              at: tick.at.toISOString(),
              age_s: ageS,
              disk: {
                path: tick.disk.path,
                total_bytes: tick.disk.totalBytes,
                free_bytes: tick.disk.freeBytes,
                used_pct: usedPct(tick.disk.totalBytes, tick.disk.freeBytes),
              },
              memory: {
                total_bytes: tick.memory.totalBytes,
                available_bytes: tick.memory.availableBytes,
                used_pct: usedPct(tick.memory.totalBytes, tick.memory.availableBytes),
              },
              stuck_workflows: { count: tick.stuck.count, by_type: tick.stuck.byType },
              stale_heartbeats: tick.staleHeartbeats,
            }
          : null,
        alerts: alerts.map((a) => ({
          code: a.code,
          severity: a.severity,
          message: a.message,
          raised_at: a.raisedAt.toISOString(),
          value: a.value,
          threshold: a.threshold,
        })),
        dependencies: {
          postgres: view(postgres),
          temporal: temporal ? view(temporal) : { state: 'not_configured', checked_at: null, error: null },
          ...(composite ? { composite_signal: composite } : {}),
          live_projector: {
            state: liveState,
            snapshot_built_at: live ? live.builtAt.toISOString() : null,
            age_s: liveFresh ? liveFresh.ageS : null,
            stale_after_s: d.liveStaleAfterS,
          },
        },
      };
    },
    { ttlMs: d.readCacheTtlMs },
  );
  d.publicReads.register('/api/health', health, CACHE_CONTROL);
  r.get('/api/health', async (req, res) => sendPreparedRead(req, res, await health.get(), CACHE_CONTROL));

  // The published Python SDK's `health()` (openapi `x-compat`): liveness in its words, touching nothing either.
  r.get('/health', (_req, res) => void res.set('Cache-Control', 'no-store').json({ ok: true, status: 'alive' }));

  r.options('/livez', (_req, res) => void res.set('Allow', 'GET, HEAD, OPTIONS').status(204).end());
  r.get('/livez', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'alive', uptime_s: Math.max(0, (d.now().getTime() - d.startedAt.getTime()) / 1000) });
  });
  return r;
}

const view = (s: ProbeState) => ({ state: s.state, checked_at: s.checkedAt.toISOString(), error: s.error });
