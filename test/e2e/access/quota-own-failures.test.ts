import { createStatsStore } from '../../../db/mint/stats-store';
import { writeEmptyLiveSnapshots } from '../../support/access-fixtures';
import { issueTestKey } from '../../support/access-keys';
import { afterBeta, useApi } from '../../support/api-harness';
import { typedApi } from '../../support/typed-api';

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
  return { env: afterBeta({ keyCacheTtlMs: 0 }), overrides: { ops: { statsStore } } };
});
// The key of each test goes in its headers.
const http = typedApi(() => api.url);
const status = async (r: Promise<{ response: Response }>) => (await r).response.status;

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
    expect(await status(http.GET('/api/v1/conditions', { headers: k.bearer }))).toBe(503);
    statsFail = true;
    // A 500 is documented for no operation: this one stays raw fetch, outside the conformance check.
    const failed = await fetch(`${api.url}/api/v1/stats`, { headers: k.bearer });
    statsFail = false;
    expect(failed.status).toBe(500);
    await settled(k.id, 2);
    expect(await usage(k.id)).toMatchObject({ used: 0, refunded: 2 });

    expect(await status(http.GET('/api/v1/stats', { headers: k.bearer }))).toBe(200);
    const probe = http.GET('/api/v1/probe/{mint}', { params: { path: { mint: 'So11111111111111111111111111111111111111112' } }, headers: k.bearer });
    expect(await status(probe)).toBe(404);
    const me = await http.GET('/api/me', { headers: k.bearer });
    expect(me.response.status).toBe(200);
    expect(me.data!.quota).toMatchObject({ limit: 5000, used: 3, remaining: 4997 });
  });

  it('gives back every call of a burst of failures, and nothing more', async () => {
    const k = await issueTestKey(t.db, 'enterprise', { customDailyQuota: 50 });
    const failures = await Promise.all(Array.from({ length: 40 }, () => status(http.GET('/api/v1/conditions', { headers: k.xApiKey }))));
    expect(failures).toEqual(Array(40).fill(503));
    await settled(k.id, 40);
    const served = await Promise.all(Array.from({ length: 60 }, () => status(http.GET('/api/v1/stats', { headers: k.xApiKey }))));
    // The whole quota is still there: exactly 50 served, the rest refused.
    expect(served.filter((s) => s === 200)).toHaveLength(50);
    expect(served.filter((s) => s === 429)).toHaveLength(10);
    expect(await usage(k.id)).toMatchObject({ used: 50, over_quota: 10, refunded: 40 });
  });
});

describe('GET /api/me once the quota is used up', () => {
  it('still answers, reporting the usage, while every other operation is refused with 429', async () => {
    const k = await issueTestKey(t.db, 'enterprise', { customDailyQuota: 2 });
    expect(await status(http.GET('/api/v1/stats', { headers: k.bearer }))).toBe(200);
    expect(await status(http.GET('/api/v1/stats', { headers: k.bearer }))).toBe(200);
    expect(await status(http.GET('/api/v1/live', { headers: k.bearer }))).toBe(429);
    for (let i = 0; i < 3; i++) {
      const me = await http.GET('/api/me', { headers: k.bearer });
      expect(me.response.status).toBe(200);
      expect(me.data!.quota).toMatchObject({ limit: 2, used: 2, remaining: 0 });
      expect(me.response.headers.get('x-ratelimit-remaining')).toBe('0');
    }
    // The count itself never passes the limit.
    expect(await usage(k.id)).toMatchObject({ used: 2 });
  });

  it('counts /api/me like any call while the quota lasts', async () => {
    const k = await issueTestKey(t.db, 'enterprise', { customDailyQuota: 3 });
    const first = await http.GET('/api/me', { headers: k.bearer });
    expect(first.data!.quota).toMatchObject({ used: 1, remaining: 2 });
    expect(await status(http.GET('/api/v1/stats', { headers: k.bearer }))).toBe(200);
    expect((await http.GET('/api/me', { headers: k.bearer })).data!.quota).toMatchObject({ used: 3, remaining: 0 });
    expect(await status(http.GET('/api/v1/stats', { headers: k.bearer }))).toBe(429);
  });
});
