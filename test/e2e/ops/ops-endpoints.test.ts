import { createHeartbeatStore } from '../../../db/ops/heartbeat-store';
import { createWatchdogStore } from '../../../db/ops/watchdog-store';
import { createPriceStore } from '../../../db/market/price-store';
import { call, useApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';
import { typedApi } from '../../support/typed-api';

let now = new Date('2026-11-23T10:00:00Z');

const { t, api } = useApi({ now: () => now });
const http = typedApi(() => api.url);
const health = async () => {
  const r = await http.GET('/api/health');
  expect(r.response.status).toBe(200);
  return r.data!;
};

describe('GET /api/health', () => {
  it('is unknown before the first watchdog tick', async () => {
    expect(await health()).toMatchObject({ status: 'unknown', tick: null, alerts: [] });
  });

  it('shows the newest tick and open alerts, then goes stale when ticks stop', async () => {
    const store = createWatchdogStore(t.db);
    const obs = {
      disk: { path: '/', totalBytes: 1000, freeBytes: 100 },
      memory: { totalBytes: 1000, availableBytes: 500 },
      stuck: { count: 0, byType: { watchdogTick: 0 } },
      staleHeartbeats: [],
    };
    await store.recordTick('watchdog-a', new Date('2026-11-23T09:59:30Z'), obs, [
      { code: 'disk_low', severity: 'warning', message: 'disk / is 90% used', value: 90, threshold: 85 },
    ]);
    let r = await health();
    expect(r.status).toBe('degraded');
    expect(r.tick).toMatchObject({ age_s: 30, disk: { used_pct: 90 }, memory: { used_pct: 50 } });
    expect(r.alerts).toEqual([expect.objectContaining({ code: 'disk_low', severity: 'warning' })]);

    // The same tick key again (a retried activity) changes nothing; a new tick without the alert clears it.
    await store.recordTick('watchdog-a', new Date('2026-11-23T09:59:40Z'), obs, []);
    expect((await health()).alerts).toHaveLength(1);
    await store.recordTick('watchdog-b', new Date('2026-11-23T09:59:50Z'), obs, []);
    r = await health();
    // The alert is gone; what still degrades this empty test world (no price, no live list, …) is listed apart.
    expect(r.alerts).toEqual([]);
    expect(r.reasons.map((x) => x.code)).not.toContain('alert:disk_low');
    expect(r.reasons.map((x) => x.code)).toContain('native_price_unknown');

    now = new Date('2026-11-23T10:10:00Z');
    r = await health();
    expect(r.status).toBe('stale');
    now = new Date('2026-11-23T10:00:00Z');
  });
});

describe('GET /api/status', () => {
  it('reports uptime, /api/live latency and each daemon', async () => {
    await createHeartbeatStore(t.db).beat('worker', 'host:1', now, new Date(now.getTime() - 5000));
    const r = await http.GET('/api/status');
    expect(r.response.status).toBe(200);
    const status = r.data!;
    const byName = Object.fromEntries(status.daemons.map((d) => [d.name, d]));
    expect(byName.worker).toMatchObject({ state: 'up', instance: 'host:1', age_s: 5 });
    expect(byName.ingest).toMatchObject({ state: 'never_seen', last_seen_at: null });
    // The API itself has not beaten in this test (no heartbeat loop), so the system is degraded.
    expect(status.status).toBe('degraded');
    expect(status.live_latency).toMatchObject({ route: '/api/live' });
  });
});

describe('GET /api/native_coin_price', () => {
  it('answers 503 before any price was fetched', async () => {
    const r = await http.GET('/api/native_coin_price');
    expect(r.response.status).toBe(503);
    expect(r.response.headers.get('retry-after')).toBeTruthy();
  });

  it('serves the cached price with its age, and the last good price marked stale while the source is down', async () => {
    const prices = createPriceStore(t.db);
    await prices.recordQuote({
      symbol: 'SOL',
      mint: 'So11111111111111111111111111111111111111112',
      usd: 81.63,
      source: 'jupiter-price-v3',
      fetchedAt: new Date('2026-11-23T09:58:00Z'),
    });
    let r = await http.GET('/api/native_coin_price');
    expect(r.response.status).toBe(200);
    expect(r.data).toMatchObject({ usd: 81.63, age_s: 120, stale: false, source_status: { state: 'ok', consecutive_failures: 0, last_error: null } });

    await prices.recordFailure('jupiter-price-v3', new Date('2026-11-23T10:03:00Z'), 'price source answered HTTP 503');
    await prices.recordFailure('jupiter-price-v3', new Date('2026-11-23T10:08:00Z'), 'price source answered HTTP 503');
    now = new Date('2026-11-23T10:09:00Z');
    r = await http.GET('/api/native_coin_price');
    expect(r.response.status).toBe(200);
    expect(r.data).toMatchObject({
      usd: 81.63,
      stale: true,
      source_status: { state: 'down', consecutive_failures: 2, last_error: 'price source answered HTTP 503' },
    });
    now = new Date('2026-11-23T10:00:00Z');
  });
});

describe('GET /api/scope', () => {
  it('states what is predicted, at what age, and what is out of scope', async () => {
    const r = await http.GET('/api/scope');
    expect(r.response.status).toBe(200);
    const scope = r.data!;
    expect(scope.predictions.find((p) => p.field === 'grad_prob')).toMatchObject({ ages_s: [30, 60] });
    expect(scope.out_of_scope).toEqual(expect.arrayContaining(["trade execution: the service never trades on anyone's behalf"]));
    expect(scope.corpus.resolution_horizon_h).toBe(24);
  });
});

describe('POST /api/keys/new', () => {
  it('always answers 402 pointing to /api/upgrade', async () => {
    for (const body of [undefined, {}, { email: 'a@b.c' }]) {
      // The content type is sent without a body too, as the old free-key clients did.
      const r = await http.POST('/api/keys/new', { body, headers: { 'content-type': 'application/json' } });
      expect([body, r.response.status]).toEqual([body, 402]);
      expect(r.error).toMatchObject({ upgrade_url: '/api/upgrade' });
    }
  });

  it('answers 422 with the spec body for malformed JSON', async () => {
    // Not JSON, which the typed client cannot send: raw HTTP, the 422 checked against openapi.yaml.
    const r = await call(`${api.url}/api/keys/new`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{bad' });
    expect(r.status).toBe(422);
    expectConforms('post', '/api/keys/new', 422, r.body);
    expect(r.body.detail[0]).toMatchObject({ loc: ['body'], type: 'json_invalid' });
  });
});

describe('service pages', () => {
  it('serves the landing page, the docs UI from local assets and the raw document (metrics are on the operator port)', async () => {
    // HTML, JavaScript and YAML: raw fetch, outside the JSON client.
    const landing = await fetch(`${api.url}/`);
    expect(landing.status).toBe(200);
    expect(await landing.text()).toContain('/docs');
    const docs = await (await fetch(`${api.url}/docs`)).text();
    expect(docs).toContain('/docs/assets/swagger-ui-bundle.js');
    expect((await fetch(`${api.url}/docs/assets/swagger-ui-bundle.js`)).status).toBe(200);
    expect(await (await fetch(`${api.url}/openapi.yaml`)).text()).toMatch(/^openapi: 3\.1/);
    await fetch(`${api.url}/api/scope`);
    expect((await fetch(`${api.url}/metrics`)).status).toBe(404);
    expect(await api.deps.metrics.registry.metrics()).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/api\/scope"/);
  });

  it('answers unknown routes 404 with the documented body', async () => {
    // A path the typed client has no type for, by design.
    const r = await call(`${api.url}/api/nope`);
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: 'not_found', message: 'no route GET /api/nope' });
  });
});
