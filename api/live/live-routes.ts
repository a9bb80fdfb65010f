import { Router } from 'express';
import { accessOf } from '../access/key-auth';
import { unavailable } from '../http/http-error';
import type { KeyedRead, KeyedReads } from '../http/keyed-reads';
import { sendPreparedAnswer, type PreparedAnswer, type RouteAnswer } from '../http/prepared-body';
import type { PublicReads } from '../http/public-reads';
import { freshness, requireSnapshot, type LiveSnapshot, type LiveSnapshotCache } from './live-snapshot-cache';

type LiveQuery = { limit?: number; min_prob?: number };

export function liveRoutes(d: {
  cache: LiveSnapshotCache;
  delayedCache: LiveSnapshotCache;
  staleAfterS: number;
  now: () => Date;
  keyedReads: KeyedReads;
  publicReads: PublicReads;
}): Router {
  const r = Router();
  const snapshot = () => requireSnapshot(d.cache);
  // Free keys get the list as it was 5 minutes ago (written by the projector from its own samples).
  const delayedSnapshot = async () => {
    const s = await d.delayedCache.get();
    if (!s) throw unavailable('the delayed live list is not built yet; it appears 5 minutes after the live projector starts', 30);
    return s;
  };

  // Public, pre-serialised and cacheable: real time, with the fields a key pays for withheld (domain/live/public-live-mint.ts),
  // serialised once per snapshot version. A snapshot the projector stopped refreshing says so (`stale`, `age_s`)
  // and may not be cached as fresh.
  // The same answer while its body and age hold (about a second), so its response headers are built once.
  let last: PreparedAnswer | undefined;
  const liveAnswer = (s: LiveSnapshot): PreparedAnswer => {
    const f = freshness(s, d.now(), d.staleAfterS);
    const body = f.stale ? s.publicStaleBody(f.ageS) : s.publicBody();
    const age = String(f.ageS);
    if (last?.body !== body || last.headers.Age !== age)
      last = { headers: { ETag: body.etag, Age: age, 'Cache-Control': f.stale ? 'no-cache' : 'public, max-age=2' }, body };
    return last;
  };
  r.get('/api/live', async (req, res) => sendPreparedAnswer(req, res, liveAnswer(await snapshot())));
  // Answered before Express too while the snapshot in memory needs no version check (api/http/public-reads.ts).
  d.publicReads.registerAnswer('/api/live', () => {
    const s = d.cache.peekChecked();
    return s && liveAnswer(s);
  });

  // As the public list's: the same answer while its body and age hold.
  let lastV1: RouteAnswer | undefined;
  const v1Answer = (s: LiveSnapshot, query: Readonly<Record<string, unknown>>): RouteAnswer => {
    const q = query as LiveQuery;
    const filter = { limit: q.limit ?? 60, minProb: q.min_prob ?? 0 };
    const f = freshness(s, d.now(), d.staleAfterS);
    const body = f.stale ? s.staleBody(f.ageS, filter) : s.filtered(filter.limit, filter.minProb);
    const age = String(f.ageS);
    if (lastV1?.body !== body || lastV1.headers.Age !== age) lastV1 = { headers: { Age: age, 'Cache-Control': 'no-store' }, body };
    return lastV1;
  };
  // A snapshot in memory that needs no version check is answered in the turn the request arrived.
  const v1Live: KeyedRead = (access, query) => {
    const delayed = (accessOf(access)?.liveDelayS ?? 0) > 0;
    const held = (delayed ? d.delayedCache : d.cache).peekChecked();
    return held ? v1Answer(held, query) : (delayed ? delayedSnapshot() : snapshot()).then((s) => v1Answer(s, query));
  };
  r.get('/api/v1/live', d.keyedReads.register('/api/v1/live', v1Live));
  return r;
}
