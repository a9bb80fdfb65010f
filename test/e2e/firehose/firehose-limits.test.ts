import WebSocket from 'ws';
import { createFirehoseLeaseStore } from '../../../db/firehose/firehose-lease-store';
import { waitFor } from '../../../scripts/lib/run';
import { issueTestKey } from '../../support/access-keys';
import { startApi, useApi, type StartedApi } from '../../support/api-harness';
import { connectFirehose, insertScore, type FirehoseTestClient } from './firehose-test-client';

// Refusals and limits, each with its documented close code, over real sockets against the real API and Postgres.
const { t, api } = useApi({
  env: { FIREHOSE_MAX_PER_KEY: '2', FIREHOSE_RECHECK_S: '0.2', FIREHOSE_HEARTBEAT_S: '0.2', FIREHOSE_MAX_BUFFERED_BYTES: '65536', FIREHOSE_POLL_MS: '100' },
});
const open: FirehoseTestClient[] = [];
const connect = (url: string, o: Parameters<typeof connectFirehose>[1] = {}) => {
  const c = connectFirehose(url, o);
  open.push(c);
  return c;
};
afterEach(async () => {
  const done = open.splice(0);
  await Promise.all(done.map((c) => c.close()));
  expect(done.flatMap((c) => c.invalid)).toEqual([]);
  // The caps count every app on this database: each test starts with every place free (a lease is deleted just
  // after its client sees the close).
  await waitFor('every lease released', async () => (await createFirehoseLeaseStore(t.db).count()).total === 0, 10_000);
});

describe('refused at connect, with a close code and the REST error code as reason', () => {
  const cases: [string, () => Promise<Parameters<typeof connectFirehose>[1]>, number, string][] = [
    ['no key', async () => ({}), 4401, 'missing_key'],
    ['a malformed key', async () => ({ headers: { Authorization: 'Basic abc' } }), 4401, 'invalid_key'],
    ['an unknown key', async () => ({ query: { api_key: 'lp_live_AAAAAAAAAA_' + 'x'.repeat(43) } }), 4401, 'invalid_key'],
    [
      'two different keys',
      async () => ({ headers: (await issueTestKey(t.db, 'enterprise')).bearer, query: { api_key: (await issueTestKey(t.db, 'enterprise')).plaintext } }),
      4401,
      'ambiguous_key',
    ],
    [
      'a key awaiting payment',
      async () => ({ headers: (await issueTestKey(t.db, 'enterprise', { awaitingPaymentOf: 'lp-memo' })).bearer }),
      4401,
      'key_not_active',
    ],
    [
      'a revoked key',
      async () => {
        const k = await issueTestKey(t.db, 'enterprise');
        await t.db('api_keys').where({ id: k.id }).update({ revoked_at: new Date() });
        return { headers: k.xApiKey };
      },
      4401,
      'invalid_key',
    ],
    ['a Free key', async () => ({ headers: (await issueTestKey(t.db, 'free')).bearer }), 4403, 'insufficient_tier'],
    ['a Builder key', async () => ({ headers: (await issueTestKey(t.db, 'builder')).bearer }), 4403, 'insufficient_tier'],
    ['a Pro key', async () => ({ headers: (await issueTestKey(t.db, 'pro')).bearer }), 4403, 'insufficient_tier'],
    [
      'an Enterprise plan that has ended',
      async () => ({ headers: (await issueTestKey(t.db, 'enterprise', { planExpiresAt: new Date(Date.now() - 1000) })).bearer }),
      4403,
      'insufficient_tier',
    ],
    [
      'a malformed since',
      async () => ({ headers: (await issueTestKey(t.db, 'enterprise')).bearer, query: { since: '-1' } }),
      4400,
      'since must be a non-negative integer',
    ],
  ];
  test.each(cases)('%s', async (_, options, code, reason) => {
    const c = connect(api.url, await options());
    expect(await c.closed).toEqual({ code, reason });
    expect(c.frames).toEqual([]);
  });

  test('another path is a 404, not an upgrade', async () => {
    const ws = new WebSocket(`${api.url.replace('http', 'ws')}/api/v1/firehose2`);
    const status = await new Promise((resolve) => ws.on('unexpected-response', (_req, res) => resolve(res.statusCode)));
    expect(status).toBe(404);
  });
});

test('connections per key are capped (4429); another key still connects', async () => {
  const k = await issueTestKey(t.db, 'enterprise');
  const a = connect(api.url, { headers: k.bearer });
  const b = connect(api.url, { query: { api_key: k.plaintext } });
  await Promise.all([a.hello(), b.hello()]);
  const c = connect(api.url, { headers: k.bearer });
  expect(await c.closed).toEqual({ code: 4429, reason: 'too_many_connections: key' });
  await connect(api.url, { headers: (await issueTestKey(t.db, 'enterprise')).bearer }).hello();
  // A closed connection frees its place.
  await a.close();
  await connect(api.url, { headers: k.bearer }).hello();
});

test('a plan that lapses or a key revoked while connected is closed by the re-check', async () => {
  const lapsing = await issueTestKey(t.db, 'enterprise');
  const revoked = await issueTestKey(t.db, 'enterprise');
  const a = connect(api.url, { headers: lapsing.bearer });
  const b = connect(api.url, { headers: revoked.bearer });
  await Promise.all([a.hello(), b.hello()]);
  await t
    .db('api_keys')
    .where({ id: lapsing.id })
    .update({ plan_expires_at: new Date(Date.now() - 1000) });
  await t.db('api_keys').where({ id: revoked.id }).update({ revoked_at: new Date() });
  expect(await a.closed).toEqual({ code: 4403, reason: 'plan_lapsed' });
  expect(await b.closed).toEqual({ code: 4401, reason: 'key_revoked' });
});

test('heartbeats: protocol pings and heartbeat frames; a peer that never answers pings is dropped', async () => {
  const k = await issueTestKey(t.db, 'enterprise');
  const live = connect(api.url, { headers: k.bearer });
  await live.until(() => live.pings() >= 3 && live.frames.filter((f) => f.type === 'heartbeat').length >= 3, 'three heartbeats');
  const dead = connect(api.url, { headers: k.bearer, autoPong: false });
  await dead.hello();
  expect((await dead.closed).code).toBe(1006);
  expect(live.ws.readyState).toBe(live.ws.OPEN);
});

test('a slow consumer is closed with 4408 instead of growing server memory', async () => {
  // Heartbeats at their default here: a client that reads nothing would otherwise be dropped as dead first.
  const other = await startApi(t.db, { env: { FIREHOSE_MAX_BUFFERED_BYTES: String(1024 * 1024), FIREHOSE_POLL_MS: '100' } });
  try {
    const slow = connect(other.url, { headers: (await issueTestKey(t.db, 'enterprise')).bearer });
    const fast = connect(other.url, { headers: (await issueTestKey(t.db, 'enterprise')).bearer });
    await Promise.all([slow.hello(), fast.hello()]);
    // The slow client stops reading its socket; the kernel's buffers fill, then the server's.
    const socket = (slow.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    socket.pause();
    // 4,000 frames of about 4 KiB: more than the kernel's loopback buffers (several MB) plus the 1 MiB bound.
    const rows = 4_000;
    await t.db.raw(
      `INSERT INTO predictions (mint, age_bucket, as_of, predicted_at, grad_prob, raw_prob, model_version, features, calibration, price_sol)
       SELECT 'SlowMint' || g || 'pump', 30, now(), now(), 0.5, 0.5, ?, '{}', '{}', 3e-8 FROM generate_series(1, ?) g`,
      [`knn-v1-${'x'.repeat(4000)}`, rows],
    );
    // Every frame was pushed to the client that reads.
    await fast.eventsUntil(rows, 60_000);
    socket.resume();
    expect(await slow.closed).toEqual({ code: 4408, reason: 'slow_consumer' });
    expect(slow.events().length).toBeLessThan(rows);
  } finally {
    await other.close();
  }
}, 90_000);

describe('a server at its overall cap', () => {
  let small: StartedApi;
  beforeAll(async () => {
    small = await startApi(t.db, { env: { FIREHOSE_MAX_CONNECTIONS: '1' } });
  });
  afterAll(() => small.close());

  test('refuses the next connection with 4429, and closes its clients with 1001 when it stops', async () => {
    const a = connect(small.url, { headers: (await issueTestKey(t.db, 'enterprise')).bearer });
    await a.hello();
    const b = connect(small.url, { headers: (await issueTestKey(t.db, 'enterprise')).bearer });
    expect(await b.closed).toEqual({ code: 4429, reason: 'too_many_connections: server' });
    await insertScore(t.db);
    await a.eventsUntil(1);
    await small.close();
    expect(await a.closed).toEqual({ code: 1001, reason: 'server_shutdown' });
  });
});
