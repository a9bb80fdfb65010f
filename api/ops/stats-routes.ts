import { Router } from 'express';
import type { StatsStore, PlatformStats } from '../../db/mint/stats-store';
import type { CompositeStatus } from '../../db/signals/composite-status-reader';
import type { Tier } from '../../domain/signals/tier-rules';
import { preparedKeyedRead } from '../http/prepared-keyed-read';
import { createPreparedRead } from '../http/prepared-read';
import type { KeyedReads } from '../http/keyed-reads';
import type { LiveSnapshotCache } from '../live/live-snapshot-cache';

/** Aggregates scan a day of facts, so they are cached for a few seconds per API process. */
const CACHE_MS = 10_000;

const CACHE_CONTROL = 'public, max-age=10';

export function statsRoutes(d: {
  statsStore: StatsStore;
  cache: LiveSnapshotCache;
  walletsIndexed: () => Promise<number>;
  signals24h: (now: Date) => Promise<Record<Tier, number>>;
  compositeStatus: (now: Date) => Promise<CompositeStatus>;
  now: () => Date;
  readCacheTtlMs: number;
  keyedReads: KeyedReads;
}): Router {
  const r = Router();
  let cached: { at: number; stats: PlatformStats; wallets: number; signals: Record<Tier, number>; withheld: CompositeStatus } | undefined;
  // Keyed (the access check runs first); the body is built once per `readCacheTtlMs`.
  const stats = createPreparedRead(
    async () => {
      const now = d.now();
      if (!cached || now.getTime() - cached.at > CACHE_MS) {
        const [stats, wallets, signals, withheld] = await Promise.all([
          d.statsStore.platform(now),
          d.walletsIndexed(),
          d.signals24h(new Date(now.getTime() - 86_400_000)),
          d.compositeStatus(now),
        ]);
        cached = { at: now.getTime(), stats, wallets, signals, withheld };
      }
      const s = cached.stats;
      const live = await d.cache.get();
      return {
        generated_at: new Date(cached.at).toISOString(),
        mints_tracked_live: live ? live.parsed().total_tracked : 0,
        launches_24h: s.launches24h,
        mayhem_excluded_24h: s.mayhem24h,
        graduations_24h: s.graduations24h,
        graduation_rate_24h: s.launches24h > 0 ? Math.min(1, s.graduations24h / s.launches24h) : null,
        trades_24h: s.trades24h,
        predictions_logged_total: s.predictionsTotal,
        predictions_24h: s.predictions24h,
        signals_24h: cached.signals,
        wallets_indexed: cached.wallets,
        signals_withheld: cached.withheld,
        ingest: {
          last_event_at: s.lastEventAt ? s.lastEventAt.toISOString() : null,
          lag_s: s.lastEventAt ? Math.max(0, (now.getTime() - s.lastEventAt.getTime()) / 1000) : null,
          gaps_24h: s.gaps24h,
        },
      };
    },
    { ttlMs: d.readCacheTtlMs },
  );
  // The body is the same for every key: while it is fresh, the answer goes out in the turn the request arrived.
  r.get('/api/v1/stats', d.keyedReads.register('/api/v1/stats', preparedKeyedRead(stats, CACHE_CONTROL)));
  return r;
}
