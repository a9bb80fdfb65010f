import { spawnApiServer } from '../../../scripts/lib/api-process';
import { writeEmptyLiveSnapshots } from '../../support/access-fixtures';
import { issueTestKey } from '../../support/access-keys';
import { createTestDatabase } from '../../support/test-db';
import { typedApi } from '../../support/typed-api';

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let servers: Awaited<ReturnType<typeof spawnApiServer>>[] = [];

beforeAll(async () => {
  t = await createTestDatabase();
  await writeEmptyLiveSnapshots(t.db, new Date());
  // Two API processes sharing nothing but the database; after the beta window, with the key cache on.
  const env = { DATABASE_URL: t.url, API_KEY_REQUIRED_AFTER: new Date(Date.now() - 86_400_000).toISOString(), API_KEY_CACHE_TTL_MS: '5000', DB_POOL_MAX: '10' };
  servers = await Promise.all([spawnApiServer(env), spawnApiServer(env)]);
}, 120_000);
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await t.drop();
});

describe('quota across two API processes', () => {
  it('serves exactly the quota when both processes take concurrent calls for one key', async () => {
    const k = await issueTestKey(t.db, 'free');
    // Every answer is checked against openapi.yaml as it arrives.
    const clients = servers.map((s) => typedApi(s.url));
    const calls = Array.from({ length: 320 }, async (_, i) => (await clients[i % 2]!.GET('/api/v1/live', { headers: i % 3 ? k.bearer : k.xApiKey })).response);
    const results = await Promise.all(calls);
    const byProcess = [0, 1].map((p) => results.filter((r, i) => i % 2 === p && r.status === 200).length);
    // Counts, not the responses themselves: a failure message must stay small.
    const statuses = results.reduce<Record<number, number>>((m, r) => ({ ...m, [r.status]: (m[r.status] ?? 0) + 1 }), {});
    expect(statuses).toEqual({ 200: 200, 429: 120 });
    // Both processes served part of the quota: the count was shared, not per process.
    expect(byProcess[0]).toBeGreaterThan(0);
    expect(byProcess[1]).toBeGreaterThan(0);
    const row = await t.db('api_key_daily_usage').where({ key_id: k.id }).first();
    expect([row.used, row.over_quota]).toEqual([200, 120]);
    // Every count from 1 to 200 was handed out exactly once across the two processes.
    const remaining = results.filter((r) => r.status === 200).map((r) => Number(r.headers.get('x-ratelimit-remaining')));
    expect(new Set(remaining).size).toBe(200);
  });
});
