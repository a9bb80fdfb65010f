import { createFirehoseLogStore } from '../../../db/firehose/firehose-log-store';
import { createLiveStore, LIVE_SNAPSHOT } from '../../../db/live/live-store';
import { createSignalStore } from '../../../db/signals/signal-store';
import { issueTestKey } from '../../support/access-keys';
import { startApi, useApi, type StartedApi } from '../../support/api-harness';
import { insertTestCross, testDelivery } from '../../support/composite-fixtures';
import { connectFirehose, insertScore, type FirehoseTestClient } from './firehose-test-client';

// Real API, real Postgres, real websocket clients over loopback: frames from real writes to the source tables.
const { t, api } = useApi({ env: { FIREHOSE_POLL_MS: '200' } });
let key: Awaited<ReturnType<typeof issueTestKey>>;
const open: FirehoseTestClient[] = [];
const connect = (url: string, o: Parameters<typeof connectFirehose>[1] = {}) => {
  const c = connectFirehose(url, { headers: key.bearer, ...o });
  open.push(c);
  return c;
};

beforeAll(async () => {
  key = await issueTestKey(t.db, 'enterprise');
});
afterEach(async () => {
  const done = open.splice(0);
  await Promise.all(done.map((c) => c.close()));
  expect(done.flatMap((c) => c.invalid)).toEqual([]);
});

const seqs = (c: FirehoseTestClient) => c.events().map((e) => e.seq!);
const contiguous = (xs: number[]) => xs.every((s, i) => i === 0 || s === xs[i - 1]! + 1);

test('an Enterprise key gets a hello, then every new score as a numbered event frame', async () => {
  const c = connect(api.url);
  const hello = await c.hello();
  expect(hello).toMatchObject({ type: 'hello', since: null, retention_s: 3600 });
  const mint = await insertScore(t.db, { gradProb: 0.61, ageBucket: 60 });
  const [e] = await c.eventsUntil(1);
  expect(e).toMatchObject({ type: 'event', kind: 'score', data: { mint, age_bucket: 60, grad_prob: 0.61, rug_prob: 0.1, runner_odds: { '2x': 0.3 } } });
  expect(e!.seq).toBeGreaterThan(hello.seq as number);
  expect(new Date(e!.at as string).toISOString()).toBe(e!.at);
  // A retried scoring activity writes nothing twice, so it pushes nothing twice.
  await insertScore(t.db, { mint, ageBucket: 60 });
  await insertScore(t.db);
  await c.eventsUntil(2);
  expect(c.events()).toHaveLength(2);
});

test('the api_key query parameter authenticates browsers', async () => {
  const c = connectFirehose(api.url, { query: { api_key: key.plaintext } });
  open.push(c);
  await c.hello();
  await insertScore(t.db);
  await c.eventsUntil(1);
});

test('live-list changes and delivered signals are events too', async () => {
  const c = connect(api.url);
  await c.hello();
  const live = createLiveStore(t.db);
  const body = (mints: string[]) => JSON.stringify({ count: mints.length, mints: mints.map((m, i) => ({ mint: m, grad_prob: 0.5 - i / 10 })) });
  await live.writeSnapshot(LIVE_SNAPSHOT, body(['A1', 'B2']), 2, new Date());
  await live.writeSnapshot(LIVE_SNAPSHOT, body(['A1', 'B2']), 2, new Date()); // no membership change: no event
  await live.writeSnapshot(LIVE_SNAPSHOT, body(['C3', 'A1']), 2, new Date());
  await live.writeSnapshot('live-delayed', body(['Z9']), 1, new Date()); // the Free tier's list is not the firehose's
  const at = Date.now();
  const x = await insertTestCross(t.db, { crossedAtMs: at - 30_000 });
  await createSignalStore(t.db).deliver(testDelivery(x, 0.3, at));
  const events = await c.eventsUntil(3);
  expect(events.map((e) => e.kind)).toEqual(['live', 'live', 'signal']);
  expect(events[0]!.data).toMatchObject({
    entered: [
      { mint: 'A1', rank: 1, grad_prob: 0.5 },
      { mint: 'B2', rank: 2 },
    ],
    left: [],
  });
  expect(events[1]!.data).toMatchObject({ entered: [{ mint: 'C3', rank: 1 }], left: ['B2'], count: 2 });
  expect(events[2]!.data).toMatchObject({ tier: 'ACT', signal: { mint: x.mint } });
  expect(typeof events[2]!.data.cursor).toBe('number');
  await new Promise((r) => setTimeout(r, 300));
  expect(c.events()).toHaveLength(3);
});

test('a client reconnecting with its last seq resumes without a gap or a repeat', async () => {
  const a = connect(api.url);
  await a.hello();
  for (let i = 0; i < 3; i++) await insertScore(t.db);
  const first = await a.eventsUntil(3);
  await a.close();
  for (let i = 0; i < 4; i++) await insertScore(t.db);
  const last = first[1]!.seq!;
  const b = connect(api.url, { query: { since: String(last) } });
  expect(await b.hello()).toMatchObject({ since: last });
  await b.eventsUntil(5);
  await insertScore(t.db);
  await b.eventsUntil(6);
  expect(seqs(b)[0]).toBe(last + 1);
  expect(contiguous(seqs(b))).toBe(true);
  expect(b.frames.some((f) => f.type === 'gap')).toBe(false);
});

describe('another API process (a cluster: each process reads the log)', () => {
  let other: StartedApi;
  beforeAll(async () => {
    // A ring of one frame: resumes come from the Postgres log, not from memory.
    other = await startApi(t.db, { env: { FIREHOSE_RING_FRAMES: '1', FIREHOSE_POLL_MS: '200' } });
  });
  afterAll(() => other.close());

  test('streams the same seqs, and resumes a client of the first process from the log', async () => {
    const onFirst = connect(api.url);
    const onOther = connect(other.url);
    await Promise.all([onFirst.hello(), onOther.hello()]);
    for (let i = 0; i < 3; i++) await insertScore(t.db);
    await Promise.all([onFirst.eventsUntil(3), onOther.eventsUntil(3)]);
    expect(seqs(onOther)).toEqual(seqs(onFirst));
    const since = seqs(onFirst)[0]! - 5;
    const resumed = connect(other.url, { query: { since: String(since) } });
    await resumed.eventsUntil(7);
    expect(seqs(resumed)).toEqual(Array.from({ length: 7 }, (_, i) => since + 1 + i));
  });
});

test('a seq older than the retention window gets a gap frame, then the live stream', async () => {
  const c = connect(api.url);
  await c.hello();
  await insertScore(t.db);
  const [old] = await c.eventsUntil(1);
  await c.close();
  // The event ages past the window; the prune every process runs drops it.
  await t
    .db('firehose_events')
    .where('seq', '<=', old!.seq!)
    .update({ at: new Date(Date.now() - 2 * 3600_000) });
  await createFirehoseLogStore(t.db).prune(3600);
  const r = connect(api.url, { query: { since: String(old!.seq! - 1) } });
  const gap = await r.until(() => r.frames.find((f) => f.type === 'gap'), 'gap');
  expect(gap).toMatchObject({ after_seq: old!.seq! - 1, reason: 'retention', resync: 'rest' });
  await insertScore(t.db);
  const [next] = await r.eventsUntil(1);
  expect(next!.seq).toBeGreaterThan(gap.resume_seq as number);
});

test('a seq this database never issued gets a gap frame', async () => {
  const c = connect(api.url, { query: { since: '9000000000' } });
  const gap = await c.until(() => c.frames.find((f) => f.type === 'gap'), 'gap');
  expect(gap).toMatchObject({ after_seq: 9_000_000_000, reason: 'unknown_seq' });
});
