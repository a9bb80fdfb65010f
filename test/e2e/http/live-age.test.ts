import { createLiveStore, LIVE_SNAPSHOT } from '../../../db/live/live-store';
import { useApi } from '../../support/api-harness';
import { typedApi } from '../../support/typed-api';

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

const http = typedApi(() => api.url);
const health = async () => {
  const r = await http.GET('/api/health');
  expect(r.response.status).toBe(200);
  return r.data!;
};
const at = (s: number) => {
  now = new Date(builtAt.getTime() + s * 1000);
};

describe('a fresh snapshot', () => {
  it('carries its age in seconds and is cacheable', async () => {
    at(3);
    for (const [path, r] of [
      ['/api/live', await http.GET('/api/live')],
      ['/api/v1/live', await http.GET('/api/v1/live')],
    ] as const) {
      expect([path, r.response.status]).toEqual([path, 200]);
      expect(r.response.headers.get('age')).toBe('3');
      // The projector's bytes as written: the age is in the header only.
      expect(r.data).not.toHaveProperty('stale');
    }
    expect((await http.GET('/api/live')).response.headers.get('cache-control')).toBe('public, max-age=2');
    const h = await health();
    expect(h.dependencies.live_projector).toMatchObject({ state: 'fresh', age_s: 3 });
    expect(h.status).toBe('unknown'); // no watchdog tick yet, nothing known to be wrong
  });
});

describe('a snapshot the projector stopped refreshing', () => {
  it('is served marked stale, not cacheable, with its age; health turns degraded', async () => {
    at(40);
    for (const [path, r] of [
      ['/api/live', await http.GET('/api/live')],
      ['/api/v1/live?limit=5', await http.GET('/api/v1/live', { params: { query: { limit: 5 } } })],
    ] as const) {
      expect([path, r.response.status]).toEqual([path, 200]);
      expect(r.response.headers.get('age')).toBe('40');
      expect(r.response.headers.get('cache-control')).toBe(path === '/api/live' ? 'no-cache' : 'no-store');
      expect(r.data).toMatchObject({ stale: true, age_s: 40, generated_at: builtAt.toISOString() });
    }
    const h = await health();
    expect(h.status).toBe('degraded');
    expect(h.dependencies.live_projector).toMatchObject({ state: 'stale', age_s: 40 });
  });

  it('a client holding the fresh ETag is not told the stale list is unchanged', async () => {
    // Raw fetch: the 304 this guards against has no body for the client to check.
    at(3);
    const fresh = await fetch(`${api.url}/api/live`);
    const etag = fresh.headers.get('etag')!;
    at(40);
    const r = await fetch(`${api.url}/api/live`, { headers: { 'If-None-Match': etag } });
    expect(r.status).toBe(200);
  });
});
