import { spawnApiServer } from '../../../scripts/lib/api-process';
import { freePort } from '../../../scripts/lib/local-temporal';
import { waitFor } from '../../../scripts/lib/run';
import { writeEmptyLiveSnapshots } from '../../support/access-fixtures';
import { issueTestKey } from '../../support/access-keys';
import { clusterPids, scrape, sampleValue } from '../../support/cluster-probe';
import { createTestDatabase } from '../../support/test-db';
import { typedApi } from '../../support/typed-api';

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let api: Awaited<ReturnType<typeof spawnApiServer>>;
let metricsUrl: string;

beforeAll(async () => {
  t = await createTestDatabase();
  await writeEmptyLiveSnapshots(t.db, new Date());
  const metricsPort = await freePort();
  metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  // One API, two processes on one port (node cluster); after the beta window, with the key cache on.
  api = await spawnApiServer({
    DATABASE_URL: t.url,
    API_PROCESSES: '2',
    API_METRICS_PORT: String(metricsPort),
    API_KEY_REQUIRED_AFTER: new Date(Date.now() - 86_400_000).toISOString(),
    API_KEY_CACHE_TTL_MS: '5000',
    DB_POOL_MAX: '10',
  });
  await waitFor('both API processes listening', async () => sampleValue(await scrape(metricsUrl), 'cluster_processes_listening') === 2, 60_000);
}, 120_000);
afterAll(async () => {
  await api?.stop();
  await t.drop();
});

describe('quota with API_PROCESSES=2 on one port', () => {
  it('serves exactly the quota while both processes of the cluster take the calls', async () => {
    expect(clusterPids(api.pid).workers).toHaveLength(2);
    const k = await issueTestKey(t.db, 'free');
    const before = await perProcessCalls();
    // Every answer is checked against openapi.yaml as it arrives.
    const http = typedApi(api.url);
    const calls = Array.from({ length: 320 }, async (_, i) => (await http.GET('/api/v1/live', { headers: i % 3 ? k.bearer : k.xApiKey })).response);
    const results = await Promise.all(calls);
    // Counts, not the responses themselves: a failure message must stay small.
    const statuses = results.reduce<Record<number, number>>((m, r) => ({ ...m, [r.status]: (m[r.status] ?? 0) + 1 }), {});
    expect(statuses).toEqual({ 200: 200, 429: 120 });
    const row = await t.db('api_key_daily_usage').where({ key_id: k.id }).first();
    expect([row.used, row.over_quota]).toEqual([200, 120]);
    // Every count from 1 to 200 was handed out exactly once across the two processes.
    const remaining = results.filter((r) => r.status === 200).map((r) => Number(r.headers.get('x-ratelimit-remaining')));
    expect(new Set(remaining).size).toBe(200);
    // Both processes served part of the calls (the primary's metrics sum them per process): the count was shared.
    const after = await perProcessCalls();
    const served = Object.entries(after).map(([p, n]) => n - (before[p] ?? 0));
    expect(served).toHaveLength(2);
    expect(served.every((n) => n > 0)).toBe(true);
    expect(served.reduce((a, b) => a + b, 0)).toBe(320);
  });

  it('counts many keys calling at once exactly: each key its own quota, every count handed out once', async () => {
    // 30 Enterprise keys with a contract quota of 7, 12 calls each, all 360 in flight together: each process counts
    // whichever keys called meanwhile in one statement, and no key's count may leak into another's.
    const keys = await Promise.all(Array.from({ length: 30 }, () => issueTestKey(t.db, 'enterprise', { customDailyQuota: 7 })));
    const http = typedApi(api.url);
    const results = await Promise.all(
      keys.flatMap((k) => Array.from({ length: 12 }, async () => ({ k, r: (await http.GET('/api/v1/stats', { headers: k.bearer })).response }))),
    );
    for (const k of keys) {
      const mine = results.filter((x) => x.k === k).map((x) => x.r);
      expect(mine.map((r) => r.status).sort()).toEqual([...Array(7).fill(200), ...Array(5).fill(429)]);
      const remaining = mine.filter((r) => r.status === 200).map((r) => Number(r.headers.get('x-ratelimit-remaining')));
      expect(remaining.sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    }
    const rows = await t
      .db('api_key_daily_usage')
      .whereIn(
        'key_id',
        keys.map((k) => k.id),
      )
      .select('used', 'over_quota');
    expect(rows.map((r) => [r.used, r.over_quota])).toEqual(keys.map(() => [7, 5]));
  });
});

/** Requests to /api/v1/live counted by each process, from the primary's aggregated /metrics. */
async function perProcessCalls(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const s of await scrape(metricsUrl)) {
    if (s.name !== 'http_request_duration_seconds_count' || s.labels.route !== '/api/v1/live') continue;
    const p = s.labels.cluster_process!;
    counts[p] = (counts[p] ?? 0) + s.value;
  }
  return counts;
}
