import type { AddressInfo } from 'node:net';
import net from 'node:net';
import WebSocket from 'ws';
import { connectFirehose as connectTypedClient, type FirehoseEvent } from '../../../clients/api/firehose-client';
import { createLaunchEventStore } from '../../../db/mint/launch-event-store';
import { CURVE, type LaunchEvent } from '../../../domain/launch/launch-events';
import { issueTestKey } from '../../support/access-keys';
import { startApi, useApi, type StartedApi } from '../../support/api-harness';
import { connectFirehose, insertScore, type FirehoseTestClient } from './firehose-test-client';

// Topic subscriptions over real websockets: real writes to the source tables append to the log through the
// triggers, each connection is sent only its topics' events, in seq order, and resumes them without a miss or repeat.
const { t, api } = useApi({ env: { FIREHOSE_POLL_MS: '200' } });
let key: Awaited<ReturnType<typeof issueTestKey>>;
const open: FirehoseTestClient[] = [];
const connect = (url: string, query: Record<string, string> = {}) => {
  const c = connectFirehose(url, { headers: key.bearer, query });
  open.push(c);
  return c;
};
const topics = (x: unknown) => ({ topics: JSON.stringify(x) });

beforeAll(async () => {
  key = await issueTestKey(t.db, 'enterprise');
});
afterEach(async () => {
  const done = open.splice(0);
  await Promise.all(done.map((c) => c.close()));
  expect(done.flatMap((c) => c.invalid)).toEqual([]);
});

let n = 0;
/** A base58 address of 44 characters, distinct per call. */
const address = (tag: string) => {
  const s = `${tag}${(n++).toString(36)}`.replace(/[^1-9A-HJ-NP-Za-km-z]/g, 'x');
  return (s + '1'.repeat(44)).slice(0, 44);
};

/** A launch and buys written as the ingest pipeline writes a feed's batch. */
async function launch(o: { creator?: string; buyers?: string[]; graduate?: boolean } = {}) {
  const mint = address('Mint');
  const now = Date.now();
  const base = { slot: 1, source: 'simulator', mint, ordinal: 0 };
  const events: LaunchEvent[] = [
    {
      ...base,
      kind: 'create',
      signature: `${mint}c`,
      at: new Date(now - 5_000),
      name: 'Topic',
      symbol: 'TOP',
      uri: 'https://example.invalid/m.json',
      bondingCurve: address('Curve'),
      creator: o.creator ?? address('Dev'),
      mayhem: false,
      vSolLamports: CURVE.initialVSolLamports,
      vTokensRaw: CURVE.initialVTokensRaw,
    },
    ...(o.buyers ?? []).map((trader, i): LaunchEvent => ({
      ...base,
      kind: 'trade',
      signature: `${mint}b${i}`,
      at: new Date(now - 4_000 + i),
      trader,
      isBuy: true,
      solLamports: 1e9,
      tokensRaw: 1e12,
      vSolLamports: CURVE.initialVSolLamports + (i + 1) * 1e9,
      vTokensRaw: CURVE.initialVTokensRaw - (i + 1) * 1e12,
    })),
  ];
  if (o.graduate)
    events.push(
      { ...base, kind: 'complete', signature: `${mint}g`, at: new Date(now - 1_000) },
      { ...base, kind: 'migrate', signature: `${mint}m`, at: new Date(now), pool: address('Pool') },
    );
  await createLaunchEventStore(t.db).writeBatch(events);
  return mint;
}

const kinds = (c: FirehoseTestClient) => c.events().map((e) => e.kind);
const settle = () => new Promise((r) => setTimeout(r, 600));

test('an unsubscribed connection keeps the four kinds it always had: launches, graduations and buys are opt-in', async () => {
  const c = connect(api.url);
  expect(await c.hello()).toMatchObject({ topics: null });
  await launch({ buyers: [address('W')], graduate: true });
  await insertScore(t.db);
  await c.eventsUntil(1);
  await settle();
  expect(kinds(c)).toEqual(['score']);
});

test('each filter: kind, mint, wallet and grad_prob threshold', async () => {
  const wallet = address('Smart');
  const byKind = connect(api.url, topics([{ kinds: ['launch', 'graduation'] }]));
  const byWallet = connect(api.url, topics([{ wallets: [wallet] }]));
  const byThreshold = connect(api.url, topics([{ kinds: ['score'], min_grad_prob: 0.5 }]));
  await Promise.all([byKind, byWallet, byThreshold].map((c) => c.hello()));
  const followed = await launch({ buyers: [address('W'), wallet, address('W')], graduate: true });
  const other = await launch({ buyers: [address('W')] });
  const byMint = connect(api.url, topics([{ mints: [followed] }]));
  await byMint.hello();
  await insertScore(t.db, { mint: followed, gradProb: 0.2 });
  await insertScore(t.db, { mint: other, gradProb: 0.7 });

  const launchesAndGraduations = await byKind.eventsUntil(4);
  expect(launchesAndGraduations.map((e) => [e.kind, e.data.mint, e.data.stage])).toEqual([
    ['launch', followed, undefined],
    ['graduation', followed, 'completed'],
    ['graduation', followed, 'migrated'],
    ['launch', other, undefined],
  ]);
  expect(launchesAndGraduations[0]!.data).toMatchObject({ name: 'Topic', symbol: 'TOP', mayhem: false });
  const buys = await byWallet.eventsUntil(1);
  expect(buys[0]).toMatchObject({ kind: 'buy', data: { mint: followed, wallet, sol_lamports: 1e9 } });
  const [mintScore] = await byMint.eventsUntil(1);
  expect(mintScore).toMatchObject({ kind: 'score', data: { mint: followed, grad_prob: 0.2 } });
  const [high] = await byThreshold.eventsUntil(1);
  expect(high).toMatchObject({ kind: 'score', data: { mint: other, grad_prob: 0.7 } });
  await settle();
  expect(kinds(byKind)).toHaveLength(4);
  expect(kinds(byWallet)).toEqual(['buy']);
  expect(kinds(byMint)).toEqual(['score']);
  expect(kinds(byThreshold)).toEqual(['score']);
});

test('several topics deliver what any of them matches, each event once', async () => {
  const wallet = address('Both');
  const c = connect(api.url, topics([{ kinds: ['buy'], wallets: [wallet] }, { kinds: ['launch'] }]));
  await c.hello();
  const mint = await launch({ buyers: [wallet], creator: wallet });
  const events = await c.eventsUntil(2);
  await settle();
  expect(c.events().map((e) => [e.kind, e.data.mint])).toEqual([
    ['launch', mint],
    ['buy', mint],
  ]);
  expect(events[0]!.seq).toBeLessThan(events[1]!.seq!);
});

test('a subscription changed on the open connection applies from the seq its answer names', async () => {
  const c = connect(api.url, topics([{ kinds: ['score'] }]));
  await c.hello();
  const before = await insertScore(t.db);
  await c.eventsUntil(1);
  c.ws.send(JSON.stringify({ type: 'subscribe', topics: [{ kinds: ['launch'] }] }));
  const answer = await c.until(() => c.frames.find((f) => f.type === 'subscribed'), 'subscribed');
  expect(answer).toMatchObject({ topics: [{ kinds: ['launch'] }] });
  expect(answer.seq).toBeGreaterThanOrEqual(c.events()[0]!.seq!);
  await insertScore(t.db);
  const mint = await launch();
  await c.eventsUntil(2);
  await settle();
  expect(c.events().map((e) => [e.kind, e.data.mint])).toEqual([
    ['score', before],
    ['launch', mint],
  ]);
  expect(c.events()[1]!.seq).toBeGreaterThan(answer.seq as number);

  // A malformed message is answered and changes nothing; back to no subscription with null.
  c.ws.send('{"type":"subscribe","topics":[{"kinds":["trades"]}]}');
  const error = await c.until(() => c.frames.find((f) => f.type === 'error'), 'error');
  expect(error).toMatchObject({ error: 'invalid_subscription' });
  c.ws.send(JSON.stringify({ type: 'subscribe', topics: null }));
  await c.until(() => c.frames.filter((f) => f.type === 'subscribed').length === 2, 'second subscribed');
  await insertScore(t.db);
  await c.eventsUntil(3);
  expect(kinds(c)).toEqual(['score', 'launch', 'score']);
});

test('a malformed topics parameter is refused with 4400', async () => {
  const c = connect(api.url, { topics: '[{"mints":["nope"]}]' });
  expect(await c.closed).toMatchObject({ code: 4400 });
  expect((await c.closed).reason).toMatch(/mints/);
  open.splice(open.indexOf(c), 1);
});

test('a reconnect with since and the same topics gets exactly the missed events of its topics', async () => {
  const wallet = address('Resume');
  const subscription = [
    { kinds: ['buy'], wallets: [wallet] },
    { kinds: ['score'], min_grad_prob: 0.5 },
  ];
  const a = connect(api.url, topics(subscription));
  await a.hello();
  await insertScore(t.db, { gradProb: 0.9 });
  const [first] = await a.eventsUntil(1);
  await a.close();
  // While away: two of its events among others.
  await insertScore(t.db, { gradProb: 0.1 });
  const mint = await launch({ buyers: [address('W'), wallet] });
  await insertScore(t.db, { gradProb: 0.6 });
  const b = connect(api.url, { since: String(first!.seq), ...topics(subscription) });
  expect(await b.hello()).toMatchObject({ since: first!.seq, topics: subscription });
  const missed = await b.eventsUntil(2);
  expect(missed.map((e) => [e.kind, e.data.mint ?? null, e.data.grad_prob ?? null])).toEqual([
    ['buy', mint, null],
    ['score', expect.any(String), 0.6],
  ]);
  await insertScore(t.db, { gradProb: 0.95 });
  await b.eventsUntil(3);
  await settle();
  const seqs = b.events().map((e) => e.seq!);
  expect(new Set(seqs).size).toBe(seqs.length);
  expect(seqs[0]).toBeGreaterThan(first!.seq!);
});

describe('across an API process restart', () => {
  let first: StartedApi;
  afterAll(async () => {
    await first?.close().catch(() => undefined);
  });

  test('the typed client reconnects to the restarted process and resumes its topics without a miss or repeat', async () => {
    const port = await freePort();
    first = await startApi(t.db, { port, env: { FIREHOSE_POLL_MS: '200' } });
    const received: FirehoseEvent[] = [];
    let hellos = 0;
    const client = connectTypedClient({
      baseUrl: first.url,
      key: key.plaintext,
      WebSocket: WebSocket as never,
      topics: [{ kinds: ['score'], min_grad_prob: 0.5 }],
      backoffMs: () => 200,
      onEvent: (e) => received.push(e),
      onFrame: (f) => void (f.type === 'hello' && hellos++),
    });
    const until = async (what: string, done: () => boolean) => {
      const deadline = Date.now() + 30_000;
      while (!done()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${received.length} events, ${hellos} hellos`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    try {
      // Live from the hello on: what was written before it is not this session's.
      await until('the hello', () => hellos === 1);
      await insertScore(t.db, { gradProb: 0.8 });
      await until('the first event', () => received.length === 1);
      await first.close();
      // Written while no process serves: the restarted one must send the subscribed ones from the log.
      await insertScore(t.db, { gradProb: 0.7 });
      await insertScore(t.db, { gradProb: 0.3 });
      first = await startApi(t.db, { port, env: { FIREHOSE_POLL_MS: '200' } });
      await until('the missed event', () => received.length === 2);
      await insertScore(t.db, { gradProb: 0.55 });
      await until('the next event', () => received.length === 3);
      await settle();
      expect(received.map((e) => e.data.grad_prob)).toEqual([0.8, 0.7, 0.55]);
      const seqs = received.map((e) => e.seq);
      expect([...seqs].sort((x, y) => x - y)).toEqual(seqs);
      expect(client.lastSeq).toBe(seqs[2]);
      expect(hellos).toBe(2);
    } finally {
      client.close();
    }
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}
