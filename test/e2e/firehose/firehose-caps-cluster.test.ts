import { createFirehoseLeaseStore } from '../../../db/firehose/firehose-lease-store';
import { spawnApiServer } from '../../../scripts/lib/api-process';
import { freePort } from '../../../scripts/lib/local-temporal';
import { childProcesses } from '../../../scripts/lib/process-table';
import { waitFor } from '../../../scripts/lib/run';
import { writeEmptyLiveSnapshots } from '../../support/access-fixtures';
import { issueTestKey } from '../../support/access-keys';
import { startApi, type StartedApi } from '../../support/api-harness';
import { createTestDatabase } from '../../support/test-db';
import { connectFirehose, type FirehoseTestClient } from './firehose-test-client';

/**
 * The firehose caps over two API processes sharing one database: this test's app and api/server.ts spawned as its
 * own process. The caps count both; a process killed without any cleanup frees its places once its leases expire.
 */
const LEASE_S = 2;
const ENV = { FIREHOSE_MAX_PER_KEY: '2', FIREHOSE_MAX_CONNECTIONS: '4', FIREHOSE_LEASE_S: String(LEASE_S), FIREHOSE_POLL_MS: '200' };
let t: Awaited<ReturnType<typeof createTestDatabase>>;
let a: StartedApi;
let b: Awaited<ReturnType<typeof spawnApiServer>>;
const open: FirehoseTestClient[] = [];
const connect = (url: string, key: { bearer: Record<string, string> }) => {
  const c = connectFirehose(url, { headers: key.bearer });
  open.push(c);
  return c;
};
const leases = () => createFirehoseLeaseStore(t.db).count();

beforeAll(async () => {
  t = await createTestDatabase();
  await writeEmptyLiveSnapshots(t.db, new Date());
  a = await startApi(t.db, { env: ENV });
  b = await spawnApiServer({ DATABASE_URL: t.url, API_PROCESSES: '1', API_METRICS_PORT: String(await freePort()), DB_POOL_MAX: '5', ...ENV });
}, 120_000);
afterAll(async () => {
  await a?.close();
  await b?.stop();
  await t?.drop();
});
afterEach(async () => {
  const done = open.splice(0);
  await Promise.all(done.map((c) => c.close()));
  expect(done.flatMap((c) => c.invalid)).toEqual([]);
  // Each test starts with every place free (a close's lease is deleted just after the client sees the close).
  await waitFor('every lease released', async () => (await leases()).total === 0, 10_000);
});

test('the per-key cap counts the connections on both processes', async () => {
  const k = await issueTestKey(t.db, 'enterprise');
  await Promise.all([connect(a.url, k).hello(), connect(b.url, k).hello()]);
  expect(await connect(a.url, k).closed).toEqual({ code: 4429, reason: 'too_many_connections: key' });
  expect(await connect(b.url, k).closed).toEqual({ code: 4429, reason: 'too_many_connections: key' });
  // Another key still connects, on either.
  await connect(b.url, await issueTestKey(t.db, 'enterprise')).hello();
});

test('the overall cap counts the connections on both processes', async () => {
  const keys = await Promise.all([1, 2, 3, 4, 5].map(() => issueTestKey(t.db, 'enterprise')));
  await Promise.all([connect(a.url, keys[0]!).hello(), connect(a.url, keys[1]!).hello(), connect(b.url, keys[2]!).hello(), connect(b.url, keys[3]!).hello()]);
  expect(await connect(a.url, keys[4]!).closed).toEqual({ code: 4429, reason: 'too_many_connections: server' });
  expect(await connect(b.url, keys[4]!).closed).toEqual({ code: 4429, reason: 'too_many_connections: server' });
});

test('concurrent connections of one key over both processes never pass the cap', async () => {
  const k = await issueTestKey(t.db, 'enterprise');
  const tries = [a.url, b.url, a.url, b.url, a.url, b.url].map((url) => connect(url, k));
  await waitFor('every attempt answered', async () => tries.every((c) => c.frames.length > 0 || c.ws.readyState === c.ws.CLOSED), 30_000);
  expect(tries.filter((c) => c.frames.some((f) => f.type === 'hello'))).toHaveLength(2);
  for (const c of tries.filter((x) => !x.frames.length)) expect(await c.closed).toEqual({ code: 4429, reason: 'too_many_connections: key' });
});

test('a lease that was not renewed in time closes its connection with 1013 lease_expired', async () => {
  const k = await issueTestKey(t.db, 'enterprise');
  const c = connect(a.url, k);
  await c.hello();
  // As if this process had missed its renewals (a long pause): its lease is past its expiry.
  await t
    .db('firehose_leases')
    .where({ key_id: k.id })
    .update({ expires_at: new Date(Date.now() - 1000) });
  expect(await c.closed).toEqual({ code: 1013, reason: 'lease_expired' });
});

// Last: it kills the spawned process.
test('a process killed without cleanup frees its places once its leases expire', async () => {
  const k = await issueTestKey(t.db, 'enterprise');
  const onB = [connect(b.url, k), connect(b.url, k)];
  await Promise.all(onB.map((c) => c.hello()));
  expect(await connect(a.url, k).closed).toEqual({ code: 4429, reason: 'too_many_connections: key' });
  const server = childProcesses(b.pid).find((p) => /api\/server\.ts/.test(p.cmdline));
  expect(server).toBeDefined();
  process.kill(server!.pid, 'SIGKILL');
  const killedAt = Date.now();
  for (const c of onB) expect((await c.closed).code).toBe(1006);
  // Its leases still count until they expire (renewed up to a third of LEASE_S before the kill) ...
  if (Date.now() - killedAt < (LEASE_S * 1000) / 2) expect(await connect(a.url, k).closed).toEqual({ code: 4429, reason: 'too_many_connections: key' });
  // ... then both places are free.
  await waitFor('the killed process’s leases to expire', async () => (await createFirehoseLeaseStore(t.db).count(k.id)).forKey === 0, 10_000);
  expect(Date.now() - killedAt).toBeLessThan(LEASE_S * 1000 + 3000);
  await Promise.all([connect(a.url, k).hello(), connect(a.url, k).hello()]);
}, 60_000);
