import { spawnApiServer } from '../../../scripts/lib/api-process';
import { writeEmptyLiveSnapshots } from '../../support/access-fixtures';
import { issueTestKey } from '../../support/access-keys';
import { createTestDatabase } from '../../support/test-db';
import { childProcesses } from '../../../scripts/lib/process-table';
import { sleep } from '../../../scripts/lib/run';

/**
 * Quota leases across API processes (api/access/quota-leases.ts). Here every key leases blocks whatever its quota
 * (API_QUOTA_LEASE_MIN_HEADROOM=0, blocks up to a quarter of what is left), so a 300-call quota exercises the
 * blocks; in production only keys with 10,000 or more calls left do. However the processes interleave, die or stop,
 * no key is served past its quota and the database never counts more than the quota.
 */
const LEASE_MS = 800;
const LIMIT = 300;
let t: Awaited<ReturnType<typeof createTestDatabase>>;
const spawned: Awaited<ReturnType<typeof spawnApiServer>>[] = [];
let env: Record<string, string>;

beforeAll(async () => {
  t = await createTestDatabase();
  await writeEmptyLiveSnapshots(t.db, new Date());
  env = {
    DATABASE_URL: t.url,
    API_KEY_REQUIRED_AFTER: new Date(Date.now() - 86_400_000).toISOString(),
    DB_POOL_MAX: '10',
    API_QUOTA_LEASE_MS: String(LEASE_MS),
    API_QUOTA_LEASE_MIN_HEADROOM: '0',
    API_QUOTA_LEASE_HEADROOM_SHARE: '4',
    API_QUOTA_LEASE_MAX_CALLS: '100',
  };
}, 300_000);
afterAll(async () => {
  await Promise.all(spawned.map((s) => s.stop()));
  await t.drop();
});
const api = async (extra: Record<string, string> = {}) => {
  // A cold start of the API takes long on a loaded machine.
  const s = await spawnApiServer({ ...env, ...extra }, { timeoutMs: 240_000 });
  spawned.push(s);
  return s;
};

/** `n` concurrent calls of one key spread over `urls`; how many each URL served (200) and refused (429). */
async function burst(urls: string[], bearer: Record<string, string>, n: number) {
  const rs = await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const r = await fetch(`${urls[i % urls.length]}/api/v1/stats`, { headers: bearer });
      await r.arrayBuffer();
      return r.status;
    }),
  );
  const other = rs.filter((s) => s !== 200 && s !== 429);
  expect(other).toEqual([]);
  return rs.filter((s) => s === 200).length;
}
const usedOf = async (keyId: number) => Number((await t.db('api_key_daily_usage').where({ key_id: keyId }).first())?.used ?? 0);

describe('quota leased in blocks per process', () => {
  it('never serves over the quota under concurrency across processes; blocks left unused come back when they expire', async () => {
    const [a, b] = await Promise.all([api(), api()]);
    const k = await issueTestKey(t.db, 'enterprise', { customDailyQuota: LIMIT });
    let served = 0;
    for (let round = 0; round < 6 && served < LIMIT; round++) {
      served += await burst([a.url, b.url], k.bearer, 120);
      // Whatever the rounds interleave, never over; the database counts served calls plus blocks still held.
      expect(served).toBeLessThanOrEqual(LIMIT);
      expect(await usedOf(k.id)).toBeLessThanOrEqual(LIMIT);
      expect(await usedOf(k.id)).toBeGreaterThanOrEqual(served);
      // Past the lease, held calls are back in the database for whichever process asks next.
      await sleep(LEASE_MS * 2);
    }
    expect(served).toBe(LIMIT);
    expect(await usedOf(k.id)).toBe(LIMIT);
  }, 600_000);

  it('a process killed holding a block: the quota is still never exceeded; its unused calls stay counted, at most one block', async () => {
    // The victim's block does not expire on its own before the kill (its lease is a minute long).
    const [a, victim] = await Promise.all([api(), api({ API_QUOTA_LEASE_MS: '60000' })]);
    const k = await issueTestKey(t.db, 'enterprise', { customDailyQuota: LIMIT });
    // The victim serves a burst and leases a block beyond it (a quarter of what is left, at most 100).
    const byVictim = await burst([victim.url], k.bearer, 40);
    expect(await usedOf(k.id)).toBeGreaterThan(byVictim);
    // The tsx launcher runs the API as its child: that child is the process to kill.
    for (const p of [...childProcesses(victim.pid).map((c) => c.pid), victim.pid]) process.kill(p, 'SIGKILL');
    await sleep(500);
    const held = (await usedOf(k.id)) - byVictim;
    expect(held).toBeLessThanOrEqual(100);
    let served = byVictim;
    for (let round = 0; round < 6; round++) {
      served += await burst([a.url], k.bearer, 100);
      expect(served).toBeLessThanOrEqual(LIMIT);
      await sleep(LEASE_MS * 2);
    }
    expect(await usedOf(k.id)).toBe(LIMIT);
    expect(served).toBe(LIMIT - held);
  }, 600_000);

  it('a process that stops gives its unused calls back', async () => {
    const s = await api();
    const k = await issueTestKey(t.db, 'enterprise', { customDailyQuota: LIMIT });
    const served = await burst([s.url], k.bearer, 30);
    expect(served).toBe(30);
    expect(await usedOf(k.id)).toBeGreaterThan(30);
    await s.stop();
    expect(await usedOf(k.id)).toBe(30);
  }, 600_000);
});
