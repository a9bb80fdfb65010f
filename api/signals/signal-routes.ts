import { Router } from 'express';
import type { SignalStore } from '../../db/signals/signal-store';
import { feedLowerBound, feedPage } from '../../domain/signals/cursor';
import type { Tier } from '../../domain/signals/tier-rules';

export type SignalRouteDeps = { signalStore: SignalStore; now: () => Date };

/**
 * `GET /api/v1/signals`: the feed in cursor order (cursor order is commit order: db/signals/signal-store.ts), so
 * passing back the page's cursor as `since` never misses and never repeats a signal. Never cached: execution bots
 * poll every 1–3 s and each poll is one indexed range read.
 */
export function signalRoutes(d: SignalRouteDeps): Router {
  const r = Router();
  r.get('/api/v1/signals', async (req, res) => {
    const q = req.query as { since?: number; limit?: number; tier?: Tier | 'all' };
    const since = q.since ?? 0;
    const limit = q.limit ?? 100;
    const tier = q.tier ?? 'all';
    const rows = await d.signalStore.after(feedLowerBound(since, d.now().getTime()), limit + 1, tier === 'all' ? null : tier);
    const page = feedPage(since, rows, limit);
    res.set('Cache-Control', 'no-store').json({ since, tier, count: page.signals.length, cursor: page.cursor, has_more: page.hasMore, signals: page.signals });
  });
  return r;
}
