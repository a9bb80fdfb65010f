import { Router, type Request, type Response } from 'express';
import { callerAccess } from '../access/key-auth';
import { unavailable } from '../http/http-error';
import { requireSnapshot, type LiveSnapshotCache, type PreparedBody } from './live-snapshot-cache';

type LiveQuery = { limit?: number; min_prob?: number };

/** Sends prepared JSON bytes, compressed when the client accepts gzip (a 500-mint list shrinks about tenfold). */
async function sendPrepared(req: Request, res: Response, body: PreparedBody): Promise<void> {
  res.type('application/json').vary('Accept-Encoding');
  if (req.acceptsEncodings('gzip', 'identity') === 'gzip') {
    res.set('Content-Encoding', 'gzip').send(await body.gzipped());
    return;
  }
  res.send(body.bytes);
}

export function liveRoutes(d: { cache: LiveSnapshotCache; delayedCache: LiveSnapshotCache }): Router {
  const r = Router();
  const snapshot = () => requireSnapshot(d.cache);
  // Free keys get the list as it was 5 minutes ago (written by the projector from its own samples).
  const delayedSnapshot = async () => {
    const s = await d.delayedCache.get();
    if (!s) throw unavailable('the delayed live list is not built yet; it appears 5 minutes after the live projector starts', 30);
    return s;
  };

  // Public, pre-serialised and cacheable: the bytes the projector wrote, with a version ETag.
  r.get('/api/live', async (req, res) => {
    const s = await snapshot();
    res.set({ ETag: s.etag, 'Cache-Control': 'public, max-age=2' });
    if (req.headers['if-none-match'] === s.etag) {
      res.status(304).end();
      return;
    }
    await sendPrepared(req, res, s.body);
  });

  r.get('/api/v1/live', async (req, res) => {
    const s = (callerAccess(res)?.liveDelayS ?? 0) > 0 ? await delayedSnapshot() : await snapshot();
    const q = req.query as unknown as LiveQuery;
    res.set('Cache-Control', 'no-store');
    await sendPrepared(req, res, s.filtered(q.limit ?? 60, q.min_prob ?? 0));
  });
  return r;
}
