import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeEmptyLiveSnapshots } from '../../support/access-fixtures';
import { issueTestKey } from '../../support/access-keys';
import { afterBeta, call, useApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';
import { rawRequest } from '../../support/raw-http';

/**
 * The keyed reads answered before Express's router (api/http/keyed-reads.ts) against the same app's Express path,
 * one app and one set of caches behind two servers: `http.createServer(app)` (Express only) and the server
 * `app.listen` makes (the fast path first). Every outcome of the access check must come out identical.
 * Raw HTTP, not the typed client: the test compares the wire (headers, 304s, gzip, hand-written query strings such
 * as `limit=1e1` or a bare `?`) of two servers byte for byte, and checks each answer against openapi.yaml itself.
 */
// Every key counted call by call (no quota leases), so the two paths' counts can be compared one apart: a leased
// block that expires between two calls skips the counts it gave back (test/e2e/access/quota-leases.test.ts).
const { t, api } = useApi({ env: { ...afterBeta(), API_READ_CACHE_TTL_MS: '60000', API_QUOTA_LEASE_MIN_HEADROOM: '1000000000' } });
let viaExpress: Server;
let expressUrl = '';
let handle: jest.SpyInstance;

beforeAll(async () => {
  await writeEmptyLiveSnapshots(t.db, new Date());
  // `app(req, res)` is `app.handle(req, res)`: every request that enters Express calls it (not in Express's typings).
  handle = jest.spyOn(api.app as unknown as { handle: (...args: unknown[]) => void }, 'handle');
  viaExpress = http.createServer(api.app);
  await new Promise<void>((resolve) => viaExpress.listen(0, '127.0.0.1', resolve));
  expressUrl = `http://127.0.0.1:${(viaExpress.address() as AddressInfo).port}`;
});
afterAll(async () => {
  viaExpress.closeAllConnections();
  await new Promise((resolve) => viaExpress.close(resolve));
});

const KEYED_READS = ['/api/v1/stats', '/api/v1/live', '/api/v1/conditions'];
const SAME = [
  'content-type',
  'content-length',
  'content-encoding',
  'vary',
  'etag',
  'cache-control',
  'www-authenticate',
  'retry-after',
  'x-ratelimit-limit',
  'x-ratelimit-reset',
];
type Answer = Awaited<ReturnType<typeof call>>;
const headersOf = (a: Answer) => Object.fromEntries(SAME.map((n) => [n, a.headers.get(n)]));

let givenBack = 0;
/**
 * A counted call answered with the service's own 5xx is given back after the response is sent (api/access/key-auth.ts),
 * so the next request may arrive before the refund's UPDATE: wait for it, or the two paths' counts drift by one.
 */
async function refundSettled(a: Answer): Promise<void> {
  if (a.status < 500 || !a.headers.has('x-ratelimit-remaining')) return;
  givenBack++;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const [row] = await t.db('api_key_daily_usage').sum({ n: 'refunded' });
    if (Number(row?.n ?? 0) >= givenBack) return;
    if (Date.now() > deadline) throw new Error(`refund ${givenBack} never reached api_key_daily_usage`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The same request through Express, then through the fast path (which must not enter Express). */
async function both(path: string, headers: Record<string, string> = {}): Promise<{ app: Answer; fast: Answer }> {
  const app = await call(expressUrl + path, { headers });
  await refundSettled(app);
  const calls = handle.mock.calls.length;
  const fast = await call(api.url + path, { headers });
  expect([path, handle.mock.calls.length]).toEqual([path, calls]);
  await refundSettled(fast);
  return { app, fast };
}

/** Identical answers; a counted call's second answer shows one call more used. */
function expectSame(path: string, a: { app: Answer; fast: Answer }, o: { counted?: boolean } = {}): void {
  expect([path, a.fast.status]).toEqual([path, a.app.status]);
  // Retry-After counts whole seconds to the quota's reset: the second answer may have crossed a second boundary.
  const retryAfter = (x: Answer) => (x.headers.has('retry-after') ? Number(x.headers.get('retry-after')) : null);
  const appRetry = retryAfter(a.app);
  if (appRetry === null) expect(retryAfter(a.fast)).toBeNull();
  else expect([appRetry, appRetry - 1]).toContain(retryAfter(a.fast));
  const rest = (x: Answer) => ({ ...headersOf(x), 'retry-after': undefined });
  expect(rest(a.fast)).toEqual(rest(a.app));
  expect(a.fast.headers.has('age')).toBe(a.app.headers.has('age'));
  const remaining = (x: Answer) => (x.headers.has('x-ratelimit-remaining') ? Number(x.headers.get('x-ratelimit-remaining')) : null);
  expect(remaining(a.fast)).toBe(o.counted && remaining(a.app) !== null ? remaining(a.app)! - 1 : remaining(a.app));
  expect(a.fast.body).toEqual(a.app.body);
  if (a.app.status !== 304) expectConforms('get', path, a.app.status, a.app.body);
}

describe('keyed reads before Express answer as the Express path does', () => {
  it('a key of the right tier: 200 (or the documented 503) with rate-limit headers, ETag/304 and gzip as the app sends them', async () => {
    const k = await issueTestKey(t.db, 'pro');
    for (const path of KEYED_READS) {
      const ok = await both(path, k.bearer);
      expectSame(path, ok, { counted: ok.app.status === 200 });
      expect(ok.app.headers.get('x-ratelimit-limit')).not.toBeNull();
      const gz = await both(path, { ...k.xApiKey, 'Accept-Encoding': 'gzip' });
      expectSame(path, gz, { counted: gz.app.status === 200 });
    }
    // /api/v1/conditions has no computed row in this database: its documented 503 (and the call given back).
    expect((await both('/api/v1/conditions', k.bearer)).fast.status).toBe(503);
    const stats = await both('/api/v1/stats', k.bearer);
    expect(stats.fast.status).toBe(200);
    const etag = stats.app.headers.get('etag')!;
    const notModified = await both('/api/v1/stats', { ...k.bearer, 'If-None-Match': etag });
    expect(notModified.fast.status).toBe(304);
    expectSame('/api/v1/stats', notModified, { counted: true });
    // The live list: always compressible (the app chooses by Accept-Encoding).
    expect((await both('/api/v1/live', { ...k.bearer, 'Accept-Encoding': 'gzip' })).fast.headers.get('content-encoding')).toBe('gzip');
  });

  it('401 for a missing, malformed, unknown, ambiguous or not yet active key', async () => {
    const a = await issueTestKey(t.db, 'pro');
    const b = await issueTestKey(t.db, 'pro');
    const unpaid = await issueTestKey(t.db, 'free', { awaitingPaymentOf: 'memo-fastpath-1' });
    const cases: [Record<string, string>, string][] = [
      [{}, 'missing_key'],
      [{ Authorization: 'Basic abc' }, 'invalid_key'],
      [{ Authorization: `Bearer ${a.plaintext.slice(0, -1)}` }, 'invalid_key'],
      [{ ...a.bearer, 'X-API-Key': b.plaintext }, 'ambiguous_key'],
      [unpaid.bearer, 'key_not_active'],
    ];
    for (const path of KEYED_READS) {
      for (const [headers, error] of cases) {
        const r = await both(path, headers);
        expect([path, error, r.app.status, r.app.body.error]).toEqual([path, error, 401, error]);
        expectSame(path, r);
      }
    }
  });

  it('403 for a tier below the operation (x-min-tier), and the Free tier its delayed live list', async () => {
    const free = await issueTestKey(t.db, 'free');
    for (const path of ['/api/v1/stats', '/api/v1/conditions']) {
      const r = await both(path, free.bearer);
      expect(r.app.body).toMatchObject({ error: 'insufficient_tier', required_tier: 'builder', current_tier: 'free' });
      expectSame(path, r);
    }
    const live = await both('/api/v1/live', free.bearer);
    expect(live.fast.body.delay_s).toBe(300);
    expectSame('/api/v1/live', live, { counted: true });
  });

  it('429 once the day’s quota is used, counted exactly across both paths', async () => {
    const k = await issueTestKey(t.db, 'enterprise', { customDailyQuota: 2 });
    const first = await both('/api/v1/stats', k.bearer);
    expect([first.app.status, first.fast.status]).toEqual([200, 200]);
    expect(first.fast.headers.get('x-ratelimit-remaining')).toBe('0');
    for (const path of KEYED_READS) {
      const r = await both(path, k.bearer);
      expect([path, r.app.status, r.app.body.error]).toEqual([path, 429, 'quota_exceeded']);
      expectSame(path, r);
    }
  });

  it("a query string passes the app's request validation first: the same answers, the same 422s", async () => {
    const k = await issueTestKey(t.db, 'pro');
    const cases = [
      '/api/v1/live?limit=1',
      '/api/v1/live?limit=5&min_prob=0.5',
      '/api/v1/live?',
      '/api/v1/live?limit=0',
      '/api/v1/live?limit=abc&min_prob=2',
      '/api/v1/live?limit=1e1',
      '/api/v1/live?verbose=1',
    ];
    for (const url of cases) {
      const r = await both(url, k.bearer);
      expectSame(url.split('?')[0]!, r, { counted: r.app.status === 200 });
    }
    // These two declare no parameters: an unknown one is the documented 422.
    for (const url of ['/api/v1/stats?verbose=1', '/api/v1/conditions?x=']) {
      const r = await both(url, k.bearer);
      expect([url, r.fast.status]).toEqual([url, 422]);
      expectSame(url.split('?')[0]!, r);
    }
    const bad = await both('/api/v1/live?limit=0', { Authorization: 'Bearer nope' });
    expect(bad.fast.status).toBe(422);
    expect(bad.fast.body.detail[0]).toMatchObject({ loc: ['query', 'limit'], type: 'greater_than_equal' });
  });

  it('sends a HEAD, a body or another path through Express', async () => {
    const k = await issueTestKey(t.db, 'pro');
    const before = handle.mock.calls.length;
    expect((await fetch(`${api.url}/api/v1/stats`, { method: 'HEAD', headers: k.bearer })).status).toBe(200);
    const port = Number(new URL(api.url).port);
    expect((await rawRequest(port, 'GET', '/api/v1/stats', [`Authorization: Bearer ${k.plaintext}`], '{}')).status).toBeLessThan(500);
    expect((await call(`${api.url}/api/v1/live/`, { headers: k.bearer })).status).toBeLessThan(500);
    expect(handle.mock.calls.length).toBe(before + 3);
  });
});
