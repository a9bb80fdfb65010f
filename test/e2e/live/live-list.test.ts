import { createLiveTick } from '../../../activities';
import { areaContext } from '../../support/area-context';
import { createPriceStore } from '../../../db/market/price-store';
import { createLaunchEventStore } from '../../../db/mint/launch-event-store';
import { createMarketSimulator } from '../../../ingest/simulator/market-simulator';
import type { LaunchEvent } from '../../../domain/launch/launch-events';
import { useApi } from '../../support/api-harness';
import { typedApi } from '../../support/typed-api';

const now = new Date();

const { t, api } = useApi({ now: () => now });
const http = typedApi(() => api.url);

describe('live list: projector snapshot → GET /api/live and /api/v1/live', () => {
  it('answers 503 before the projector has built a snapshot', async () => {
    const r = await http.GET('/api/live');
    expect(r.response.status).toBe(503);
  });

  it('serves the simulated market with ETag/304, filters by min_prob and counts in stats', async () => {
    // Four simulated minutes ending now, written as ingestion would.
    const sim = createMarketSimulator({ seed: 7, launchesPerSecond: 0.5 });
    const events: LaunchEvent[] = [...sim.events(now.getTime() - 240_000, now.getTime())];
    expect(events.length).toBeGreaterThan(100);
    await createLaunchEventStore(t.db).writeBatch(events);
    await createPriceStore(t.db).recordQuote({
      symbol: 'SOL',
      mint: 'So11111111111111111111111111111111111111112',
      usd: 80,
      source: 'jupiter-price-v3',
      fetchedAt: now,
    });
    const projector = createLiveTick(areaContext(t.db, { now: () => now }));
    const first = await projector.refreshLiveSnapshot();
    expect(first.tracked).toBeGreaterThan(10);

    const r = await http.GET('/api/live');
    expect(r.response.status).toBe(200);
    expect(r.data!.mints.length).toBe(r.data!.count);
    expect(r.data!.mints.every((m) => m.mayhem === false && m.hide_reason === null)).toBe(true);
    expect(r.data!.mints[0]!.market_cap_usd).toBeGreaterThan(0);
    const etag = r.response.headers.get('etag')!;
    // Conditional requests and encodings are HTTP-level checks: raw fetch.
    expect((await fetch(`${api.url}/api/live`, { headers: { 'If-None-Match': etag } })).status).toBe(304);

    const limited = await http.GET('/api/v1/live', { params: { query: { limit: 3 } } });
    expect(limited.response.status).toBe(200);
    expect(limited.data!.count).toBe(3);
    const none = await http.GET('/api/v1/live', { params: { query: { min_prob: 0.5 } } });
    expect(none.data!.mints).toEqual([]); // nothing was scored: no probability reaches 0.5
    const bad = await http.GET('/api/v1/live', { params: { query: { limit: 500 } } });
    expect(bad.response.status).toBe(422);
    expect(bad.error).toMatchObject({ detail: [{ loc: ['query', 'limit'], type: 'less_than_equal', ctx: { le: 200 } }] });

    // The same bytes either way: gzip for clients that ask (Node's fetch does), plain for those that don't.
    for (const path of ['/api/live', '/api/v1/live?limit=3']) {
      const gz = await fetch(`${api.url}${path}`, { headers: { 'accept-encoding': 'gzip' } });
      const plain = await fetch(`${api.url}${path}`, { headers: { 'accept-encoding': 'identity' } });
      expect(gz.headers.get('content-encoding')).toBe('gzip');
      expect(plain.headers.get('content-encoding')).toBeNull();
      expect(gz.headers.get('vary')).toMatch(/Accept-Encoding/i);
      expect(await gz.json()).toEqual(await plain.json());
    }

    // An incremental refresh folds only new trades, and bumps the version (new ETag).
    const second = await projector.refreshLiveSnapshot();
    expect(second.version).toBe(first.version + 1);
    expect(second.tradesApplied).toBe(0);

    const stats = await http.GET('/api/v1/stats');
    expect(stats.response.status).toBe(200);
    expect(stats.data!.launches_24h).toBe(events.filter((e) => e.kind === 'create').length);
  });

  it('answers 404 for an unknown mint on probe and by_mint', async () => {
    const m = 'So11111111111111111111111111111111111111112';
    const p = await http.GET('/api/v1/probe/{mint}', { params: { path: { mint: m } } });
    expect(p.response.status).toBe(404);
    expect((await http.GET('/api/predictions/by_mint/{mint}', { params: { path: { mint: m } } })).response.status).toBe(404);
  });
});
