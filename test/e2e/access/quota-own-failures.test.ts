import { createStatsStore } from '../../../db/mint/stats-store';
import { writeEmptyLiveSnapshots } from '../../support/access-fixtures';
import { issueTestKey } from '../../support/access-keys';
import { afterBeta, call, useApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';

/**
 * The quota pays for answers, not for the service's own failures: a call the service answers with a 5xx is given
 * back. And /api/me, where a caller reads its usage, answers even once the day's quota is used up.
 */
let statsFail = false;

const { t, api } = useApi(async (db) => {
  await writeEmptyLiveSnapshots(db, new Date());
  // The real stats store, failing on demand as a broken query or a lost connection would.
  const real = createStatsStore(db);
  const statsStore = {
    ...real,
    platform: async (now: Date) => (statsFail ? Promise.reject(new Error('connection terminated unexpectedly')) : real.platform(now)),
  };
  return { env: afterBeta({ keyCacheTtlMs: 0 }), overrides: { mint: { statsStore } } };
});

const usage = async (keyId: number) =>
  (await t.db('api_key_daily_usage').where({ key_id: keyId }).first()) as { used: number; over_quota: number; refunded: number } | undefined;
async function settled(keyId: number, refunded: number) {
  for (const until = Date.now() + 5000; Date.now() < until; await new Promise((r) => setTimeout(r, 25))) {
    if ((await usage(keyId))?.refunded === refunded) return;
  }
  throw new Error(`refunds for key ${keyId} never reached ${refunded}`);
}

describe('quota and the service’s own failures', () => {
  it('a 503 or a 500 costs no call; a 2xx or a 4xx answer does', async () => {
    const k = await issueTestKey(t.db, 'builder');
    // Market conditions are not computed in this database: 503 with Retry-After.
    const unavailable = await call(`${api.url}/api/v1/conditions`, { headers: k.bearer });
    expect(unavailable.status).toBe(503);
    expectConforms('get', '/api/v1/conditions', 503, unavailable.body);
    statsFail = true;
    const failed = await call(`${api.url}/api/v1/stats`, { headers: k.bearer });
    statsFail = false;
    expect(failed.status).toBe(500);
    await settled(k.id, 2);
    expect(await usage(k.id)).toMatchObject({ used: 0, refunded: 2 });

    expect((await call(`${api.url}/api/v1/stats`, { headers: k.bearer })).status).toBe(200);
    expect((await call(`${api.url}/api/v1/probe/So11111111111111111111111111111111111111112`, { headers: k.bearer })).status).toBe(404);
    const me = await call(`${api.url}/api/me`, { headers: k.bearer });
    expectConforms('get', '/api/me', 200, me.body);
    expect(me.body.quota).toMatchObject({ limit: 5000, used: 3, remaining: 4997 });
  });

  it('gives back every call of a burst of failures, and nothing more', async () => {
    const k = await issueTestKey(t.db, 'enterprise', { customDailyQuota: 50 });
    const failures = await Promise.all(Array.from({ length: 40 }, () => call(`${api.url}/api/v1/conditions`, { headers: k.xApiKey })));
    expect(failures.map((r) => r.status)).toEqual(Array(40).fill(503));
    await settled(k.id, 40);
    const served = await Promise.all(Array.from({ length: 60 }, () => call(`${api.url}/api/v1/stats`, { headers: k.xApiKey })));
    // The whole quota is still there: exactly 50 served, the rest refused.
    expect(served.filter((r) => r.status === 200)).toHaveLength(50);
    expect(served.filter((r) => r.status === 429)).toHaveLength(10);
    expect(await usage(k.id)).toMatchObject({ used: 50, over_quota: 10, refunded: 40 });
  });
});

describe('GET /api/me once the quota is used up', () => {
  it('still answers, reporting the usage, while every other operation is refused with 429', async () => {
    const k = await issueTestKey(t.db, 'enterprise', { customDailyQuota: 2 });
    expect((await call(`${api.url}/api/v1/stats`, { headers: k.bearer })).status).toBe(200);
    expect((await call(`${api.url}/api/v1/stats`, { headers: k.bearer })).status).toBe(200);
    expect((await call(`${api.url}/api/v1/live`, { headers: k.bearer })).status).toBe(429);
    for (let i = 0; i < 3; i++) {
      const me = await call(`${api.url}/api/me`, { headers: k.bearer });
      expect(me.status).toBe(200);
      expectConforms('get', '/api/me', 200, me.body);
      expect(me.body.quota).toMatchObject({ limit: 2, used: 2, remaining: 0 });
      expect(me.headers.get('x-ratelimit-remaining')).toBe('0');
    }
    // The count itself never passes the limit.
    expect(await usage(k.id)).toMatchObject({ used: 2 });
  });

  it('counts /api/me like any call while the quota lasts', async () => {
    const k = await issueTestKey(t.db, 'enterprise', { customDailyQuota: 3 });
    const first = await call(`${api.url}/api/me`, { headers: k.bearer });
    expect(first.body.quota).toMatchObject({ used: 1, remaining: 2 });
    expect((await call(`${api.url}/api/v1/stats`, { headers: k.bearer })).status).toBe(200);
    expect((await call(`${api.url}/api/me`, { headers: k.bearer })).body.quota).toMatchObject({ used: 3, remaining: 0 });
    expect((await call(`${api.url}/api/v1/stats`, { headers: k.bearer })).status).toBe(429);
  });
});
