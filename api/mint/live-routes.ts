import { Router } from 'express';
import { requireSnapshot, type LiveSnapshotCache } from './live-snapshot-cache';

type LiveQuery = { limit?: number; min_prob?: number };

export function liveRoutes(d: { cache: LiveSnapshotCache }): Router {
  const r = Router();
  const snapshot = () => requireSnapshot(d.cache);

  // Public, pre-serialised and cacheable: the bytes the projector wrote, with a version ETag.
  r.get('/api/live', async (req, res) => {
    const s = await snapshot();
    res.set({ ETag: s.etag, 'Cache-Control': 'public, max-age=2' });
    if (req.headers['if-none-match'] === s.etag) {
      res.status(304).end();
      return;
    }
    res.type('application/json').send(s.bytes);
  });

  r.get('/api/v1/live', async (req, res) => {
    const s = await snapshot();
    const q = req.query as unknown as LiveQuery;
    const limit = q.limit ?? 60;
    const minProb = q.min_prob ?? 0;
    const all = s.parsed();
    // With min_prob 0 every tracked mint counts, scored or not; above 0 only scored mints can qualify.
    const kept = all.mints.filter((m) => (minProb <= 0 ? true : m.grad_prob !== null && m.grad_prob >= minProb)).slice(0, limit);
    res.set('Cache-Control', 'no-store').json({ ...all, count: kept.length, mints: kept });
  });
  return r;
}
