import { createLiveStore, LIVE_SNAPSHOT } from '../../../db/mint/live-store';
import { call, useApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';

/** /api/live says how old its snapshot is, and a snapshot the projector stopped refreshing is not served as fresh. */
const builtAt = new Date('2026-11-23T10:00:00Z');
let now = builtAt;

const { api } = useApi(async (db) => {
  await createLiveStore(db).writeSnapshot(
    LIVE_SNAPSHOT,
    JSON.stringify({ generated_at: builtAt.toISOString(), refresh_interval_s: 2, delay_s: 0, total_tracked: 0, count: 0, mints: [] }),
    0,
    builtAt,
  );
  return { now: () => now };
});

const at = (s: number) => {
  now = new Date(builtAt.getTime() + s * 1000);
};

describe('a fresh snapshot', () => {
  it('carries its age in seconds and is cacheable', async () => {
    at(3);
    for (const path of ['/api/live', '/api/v1/live']) {
      const r = await call(`${api.url}${path}`);
      expect(r.status).toBe(200);
      expectConforms('get', path, 200, r.body);
      expect(r.headers.get('age')).toBe('3');
      // The projector's bytes as written: the age is in the header only.
      expect(r.body.stale).toBeUndefined();
    }
    expect((await call(`${api.url}/api/live`)).headers.get('cache-control')).toBe('public, max-age=2');
    const h = await call(`${api.url}/api/health`);
    expectConforms('get', '/api/health', 200, h.body);
    expect(h.body.dependencies.live_projector).toMatchObject({ state: 'fresh', age_s: 3 });
    expect(h.body.status).toBe('unknown'); // no watchdog tick yet, nothing known to be wrong
  });
});

describe('a snapshot the projector stopped refreshing', () => {
  it('is served marked stale, not cacheable, with its age; health turns degraded', async () => {
    at(40);
    for (const path of ['/api/live', '/api/v1/live?limit=5']) {
      const r = await call(`${api.url}${path}`);
      expect(r.status).toBe(200);
      expectConforms('get', path.split('?')[0]!, 200, r.body);
      expect(r.headers.get('age')).toBe('40');
      expect(r.headers.get('cache-control')).toBe(path === '/api/live' ? 'no-cache' : 'no-store');
      expect(r.body).toMatchObject({ stale: true, age_s: 40, generated_at: builtAt.toISOString() });
    }
    const h = await call(`${api.url}/api/health`);
    expectConforms('get', '/api/health', 200, h.body);
    expect(h.body.status).toBe('degraded');
    expect(h.body.dependencies.live_projector).toMatchObject({ state: 'stale', age_s: 40 });
  });

  it('a client holding the fresh ETag is not told the stale list is unchanged', async () => {
    at(3);
    const fresh = await fetch(`${api.url}/api/live`);
    const etag = fresh.headers.get('etag')!;
    at(40);
    const r = await fetch(`${api.url}/api/live`, { headers: { 'If-None-Match': etag } });
    expect(r.status).toBe(200);
  });
});
