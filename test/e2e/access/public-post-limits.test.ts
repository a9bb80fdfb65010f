import http from 'node:http';
import { DEFAULT_PUBLIC_POST_LIMITS, type PublicPostLimits } from '../../../domain/access/public-post-limits';
import { issueTestKey } from '../../support/access-keys';
import { call, publicPostLimitsEnv, startApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';
import { createTestDatabase } from '../../support/test-db';
import { randomAddress } from '../../fakes/solana-treasury-ledger';
import { testWallet } from '../../support/test-wallet';
import { typedApi } from '../../support/typed-api';
import type { Schemas } from '../../../clients/api/api-client';

/**
 * Unauthenticated POSTs are limited per client and for everyone, in Postgres so every API process counts against
 * the same windows. The app trusts a forwarded-address header only from the proxies API_TRUSTED_PROXIES names (none
 * by default); most tests here configure 127.0.0.1 as one, so the header stands in for distinct clients, and the last
 * ones spoof it from a peer that is not configured.
 */
const TREASURY = randomAddress();
const servers: Awaited<ReturnType<typeof startApi>>[] = [];
const dbs: Awaited<ReturnType<typeof createTestDatabase>>[] = [];

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await Promise.all(dbs.map((d) => d.drop()));
});

async function apiWith(
  limits: Partial<PublicPostLimits>,
  db?: Awaited<ReturnType<typeof createTestDatabase>>,
  proxies: Record<string, string> = { API_TRUSTED_PROXIES: '127.0.0.1' },
) {
  const t = db ?? (await createTestDatabase());
  if (!db) dbs.push(t);
  const api = await startApi(t.db, { env: { TREASURY_ADDRESS: TREASURY, ...proxies, ...publicPostLimitsEnv({ ...DEFAULT_PUBLIC_POST_LIMITS, ...limits }) } });
  servers.push(api);
  return { t, api, url: api.url };
}

/** An answer of the typed client, flattened: its status, headers and body (data or error, whichever it is). */
type Answer = { status: number; headers: Headers; body: any };
const flat = async (p: Promise<{ response: Response; data?: unknown; error?: unknown }>): Promise<Answer> => {
  const r = await p;
  return { status: r.response.status, headers: r.response.headers, body: r.response.ok ? r.data : r.error };
};
const from = (client: string) => ({ 'x-forwarded-for': client });
/** The unauthenticated POSTs, through the typed client (each answer checked against openapi.yaml). */
const POSTS = {
  // The spec lets /api/upgrade's defaulted fields be left out; openapi-typescript types them as required.
  '/api/upgrade': (url: string, client: string) => flat(typedApi(url).POST('/api/upgrade', { body: {} as Schemas['UpgradeRequest'], headers: from(client) })),
  '/api/signup/wallet/init': (url: string, client: string) =>
    flat(typedApi(url).POST('/api/signup/wallet/init', { body: { wallet: testWallet().address, tier: 'api' }, headers: from(client) })),
  '/api/signup/wallet/sign': (url: string, client: string) =>
    flat(typedApi(url).POST('/api/signup/wallet/sign', { body: { link_id: 'abcdefgh12345678', signature: '1'.repeat(64) }, headers: from(client) })),
  '/api/keys/new': (url: string, client: string) => flat(typedApi(url).POST('/api/keys/new', { body: {}, headers: from(client) })),
};
const upgrade = POSTS['/api/upgrade'];

function expectRateLimited(r: Answer, path: string, scope: 'client' | 'global', limit: number, windowS: number) {
  expect([r.status, r.body.error, r.body.scope]).toEqual([429, 'rate_limited', scope]);
  expect(r.body).toMatchObject({ limit, window_s: windowS });
  const retryAfter = Number(r.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowS);
  // Measured against the answer's own Date header (whole seconds), not the test's clock: on a loaded machine the
  // answer may be read seconds after it was sent.
  const sentAt = Date.parse(r.headers.get('date')!);
  expect(Math.abs(Date.parse(r.body.reset_at) - (sentAt + retryAfter * 1000))).toBeLessThan(2000);
}

describe('rate limits on unauthenticated POSTs', () => {
  it('with the default limits, a client hammering /api/upgrade gets 10 intents a minute, not 100', async () => {
    const { t, url } = await apiWith({});
    const results = await Promise.all(Array.from({ length: 100 }, () => upgrade(url, '198.51.100.1')));
    const statuses = results.reduce<Record<number, number>>((m, r) => ({ ...m, [r.status]: (m[r.status] ?? 0) + 1 }), {});
    expect(statuses).toEqual({ 200: 10, 429: 90 });
    expectRateLimited(
      results.find((r) => r.status === 429)!,
      '/api/upgrade',
      'client',
      10,
      60,
    );
    expect(await t.db('payment_intents').count({ n: '*' }).first()).toEqual({ n: 10 });
    // Another client is not held back by the first.
    expect((await upgrade(url, '198.51.100.2')).status).toBe(200);
  });

  it('counts upgrade, signup init, signup sign and keys/new against one client budget', async () => {
    const { url } = await apiWith({ perClientPerMinute: 4 });
    const c = '203.0.113.10';
    // Without a workflow service signup answers 503: still a request made.
    expect((await POSTS['/api/signup/wallet/init'](url, c)).status).toBe(503);
    expect((await POSTS['/api/signup/wallet/sign'](url, c)).status).toBe(503);
    expect((await POSTS['/api/keys/new'](url, c)).status).toBe(402);
    expect((await upgrade(url, c)).status).toBe(200);
    for (const [path, post] of Object.entries(POSTS)) {
      expectRateLimited(await post(url, c), path, 'client', 4, 60);
    }
  });

  it('a request refused as malformed costs nothing; keyed POSTs and GETs are not limited here', async () => {
    const { t, url } = await apiWith({ perClientPerMinute: 1 });
    const c = '203.0.113.20';
    // tier=gold is input the types forbid: raw HTTP, its 422 checked against openapi.yaml.
    for (let i = 0; i < 5; i++) {
      const bad = await call(`${url}/api/upgrade`, { method: 'POST', headers: { 'content-type': 'application/json', ...from(c) }, body: '{"tier":"gold"}' });
      expect(bad.status).toBe(422);
      expectConforms('post', '/api/upgrade', 422, bad.body);
    }
    const ok = await upgrade(url, c);
    expect(ok.status).toBe(200);
    const http = typedApi(url);
    for (let i = 0; i < 3; i++) {
      expect((await http.GET('/api/upgrade/{memo}', { params: { path: { memo: ok.body.memo } }, headers: from(c) })).response.status).toBe(200);
    }
    const k = await issueTestKey(t.db, 'free');
    const link = await http.POST('/api/v1/wallet/link', {
      body: { wallet: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM', signature_b58: '1'.repeat(64), key_prefix: k.prefix },
      headers: { ...from(c), ...k.bearer },
    });
    expect(link.response.status).toBe(422); // past every limit, refused for its signature
  });

  it('an hourly window holds after the minute one has room again', async () => {
    const { url } = await apiWith({ perClientPerMinute: 5, perClientPerHour: 2 });
    const c = '203.0.113.30';
    expect((await upgrade(url, c)).status).toBe(200);
    expect((await upgrade(url, c)).status).toBe(200);
    expectRateLimited(await upgrade(url, c), '/api/upgrade', 'client', 2, 3600);
  });

  it('counts an IPv6 client by its /64', async () => {
    const { url } = await apiWith({ perClientPerMinute: 2 });
    expect((await upgrade(url, '2001:db8:5:7::1')).status).toBe(200);
    expect((await upgrade(url, '2001:db8:5:7:ffff:1:2:3')).status).toBe(200);
    expectRateLimited(await upgrade(url, '2001:db8:5:7::abcd'), '/api/upgrade', 'client', 2, 60);
    expect((await upgrade(url, '2001:db8:5:8::1')).status).toBe(200); // the next /64 is another client
  });

  it('a global limit holds for all clients together, and a refused client does not spend it', async () => {
    const { url } = await apiWith({ perClientPerMinute: 2, globalPerMinute: 5 });
    expect((await upgrade(url, '192.0.2.1')).status).toBe(200);
    expect((await upgrade(url, '192.0.2.1')).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await upgrade(url, '192.0.2.1')).body.scope).toBe('client');
    const others = [];
    for (let i = 2; i <= 5; i++) others.push((await upgrade(url, `192.0.2.${i}`)).status);
    expect(others).toEqual([200, 200, 200, 429]);
    expectRateLimited(await upgrade(url, '192.0.2.99'), '/api/upgrade', 'global', 5, 60);
  });

  it('holds across API processes sharing the database, exactly under concurrency', async () => {
    const a = await apiWith({ perClientPerMinute: 7 });
    const b = await apiWith({ perClientPerMinute: 7 }, a.t);
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => upgrade(i % 2 ? a.url : b.url, '203.0.113.40')));
    expect(results.filter((r) => r.status === 200)).toHaveLength(7);
    expect(results.filter((r) => r.status === 429)).toHaveLength(33);
  });
});

/** POST /api/upgrade from a chosen loopback address (127.0.0.0/8 is all this host's), raw so the peer is ours to pick. */
function upgradeFrom(url: string, localAddress: string, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}/api/upgrade`, { method: 'POST', localAddress, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString());
        expectConforms('post', '/api/upgrade', res.statusCode!, body);
        resolve({ status: res.statusCode!, body });
      });
    });
    req.on('error', reject);
    req.end('{}');
  });
}
const statusCounts = (rs: { status: number }[]) => rs.reduce<Record<number, number>>((m, r) => ({ ...m, [r.status]: (m[r.status] ?? 0) + 1 }), {});

describe('a forwarded-address header is believed only from a configured proxy', () => {
  it('by default no one is trusted: a loopback client rotating X-Forwarded-For and Forwarded is one client', async () => {
    const { url } = await apiWith({}, undefined, {});
    const rs = [];
    for (let i = 0; i < 40; i++) {
      const spoof: Record<string, string> = i % 2 ? { 'x-forwarded-for': `198.51.100.${i}` } : { forwarded: `for=198.51.100.${i}` };
      rs.push(await upgradeFrom(url, '127.0.0.1', spoof));
    }
    expect(statusCounts(rs)).toEqual({ 200: 10, 429: 30 });
    expect(rs.at(-1)!.body).toMatchObject({ error: 'rate_limited', scope: 'client' });
  });

  it('from a configured proxy the header names the client; the same header from another peer does not', async () => {
    const { url } = await apiWith({ perClientPerMinute: 2 }, undefined, { API_TRUSTED_PROXIES: '127.0.0.2' });
    // Through the proxy: three clients, two calls each, all answered.
    const proxied = [];
    for (const c of ['198.51.100.1', '198.51.100.2', '198.51.100.3'])
      for (let i = 0; i < 2; i++) proxied.push(await upgradeFrom(url, '127.0.0.2', { 'x-forwarded-for': c }));
    expect(statusCounts(proxied)).toEqual({ 200: 6 });
    // A client that prepends its own entry is still the address the proxy appended.
    expect((await upgradeFrom(url, '127.0.0.2', { 'x-forwarded-for': '203.0.113.9, 198.51.100.1' })).status).toBe(429);
    // Straight from 127.0.0.1 (not configured), rotating the header: counted as 127.0.0.1.
    const spoofed = [];
    for (let i = 0; i < 6; i++) spoofed.push(await upgradeFrom(url, '127.0.0.1', { 'x-forwarded-for': `203.0.113.${i}` }));
    expect(statusCounts(spoofed)).toEqual({ 200: 2, 429: 4 });
  });

  it('a proxy configured to write Forwarded is read through it, and its X-Forwarded-For is then ignored', async () => {
    const { url } = await apiWith({ perClientPerMinute: 1 }, undefined, { API_TRUSTED_PROXIES: '127.0.0.2', API_FORWARDED_HEADER: 'forwarded' });
    expect((await upgradeFrom(url, '127.0.0.2', { forwarded: 'for="[2001:db8:5:7::1]:4711"' })).status).toBe(200);
    // The same /64 is the same client.
    expect((await upgradeFrom(url, '127.0.0.2', { forwarded: 'for="[2001:db8:5:7::2]"' })).status).toBe(429);
    expect((await upgradeFrom(url, '127.0.0.2', { forwarded: 'for=198.51.100.50' })).status).toBe(200);
    // Rotating X-Forwarded-For through it does not make new clients: the proxy's own address is the client.
    expect((await upgradeFrom(url, '127.0.0.2', { 'x-forwarded-for': '198.51.100.60' })).status).toBe(200);
    expect((await upgradeFrom(url, '127.0.0.2', { 'x-forwarded-for': '198.51.100.61' })).status).toBe(429);
  });
});
