import path from 'node:path';
import { eventKey, type LaunchEvent } from '../../../domain/launch/launch-events';
import { PumpEventDecoder } from '../../../clients/solana/pump/pump-event-decoder';
import { loadPumpIdl, PUMP_PROGRAM_ID } from '../../../clients/solana/pump/pump-idl';
import { SolanaLogsFeed } from '../../../ingest/solana-logs/solana-logs-feed';
import { createLogger } from '../../../platform/logger';
import { startSolanaRpcServer, type CapturedTx, type SolanaRpcFake } from '../../fakes/solana-rpc-server';
import { SHARED_DATA } from '../../support/test-env';

const decoder = new PumpEventDecoder(loadPumpIdl(path.join(SHARED_DATA, 'idl', 'pump.json')));
const logger = createLogger('silent', 'solana-logs-test');

async function waitFor(what: string, cond: () => boolean, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Keys of the events a transaction holds, decoded straight from the capture (what the feed must deliver). */
const keysOf = (txs: CapturedTx[]) =>
  txs.flatMap((t) => decoder.decodeTransaction({ ...t, blockTime: null }, { source: 'x', receivedAt: new Date() }).events.map(eventKey));

let fake: SolanaRpcFake;
let feed: SolanaLogsFeed;
let received: LaunchEvent[];
const receivedKeys = () => received.map(eventKey);

beforeEach(async () => {
  fake = await startSolanaRpcServer({ programId: PUMP_PROGRAM_ID });
  received = [];
  feed = new SolanaLogsFeed({
    wsUrl: fake.wsUrl,
    rpcUrl: fake.url,
    decoder,
    logger,
    backoff: { baseMs: 20, maxMs: 100 },
    pingIntervalMs: 150,
    batch: { maxEvents: 20, maxDelayMs: 10 },
    backfill: { retry: { baseMs: 10, maxMs: 50 } },
  });
  feed.start(async (events) => void received.push(...events));
  await waitFor('the subscription', () => fake.subscriptions() === 1);
});

afterEach(async () => {
  await feed.stop();
  await fake.close();
});

describe('Solana logsSubscribe feed against a local RPC node', () => {
  it('subscribes to the launchpad program at confirmed commitment and delivers decoded events', async () => {
    expect(fake.subscribeRequests()).toEqual([[{ mentions: [PUMP_PROGRAM_ID] }, { commitment: 'confirmed' }]]);
    const published = fake.publish(40);
    const expected = keysOf(published);
    expect(expected.length).toBeGreaterThan(0);
    await waitFor('the first events', () => received.length >= expected.length);
    expect(receivedKeys()).toEqual(expected);
    expect(received.every((e) => e.source === 'solana-logs' && e.slot !== null)).toBe(true);
    expect(feed.stats()).toMatchObject({ connected: true, framesReceived: 41, badFrames: 0, reconnects: 0, gaps: [], eventsEmitted: expected.length });
  });

  it('survives a dropped connection, reports the gap and backfills every missed transaction', async () => {
    const before = fake.publish(50);
    await waitFor('live events', () => received.length === keysOf(before).length);

    fake.setAcceptConnections(false);
    fake.dropConnections();
    await waitFor('the loss to be noticed', () => !feed.stats().connected);
    const missed = fake.publish(50); // on the chain, never notified
    const missedKeys = keysOf(missed);
    expect(missedKeys.length).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 150)); // refused reconnect attempts meanwhile
    fake.setAcceptConnections(true);
    await waitFor('the resubscription', () => fake.subscriptions() === 1 && feed.stats().connected);
    const after = fake.publish();
    await feed.flushed();

    const all = [...before, ...missed, ...after];
    expect(new Set(receivedKeys())).toEqual(new Set(keysOf(all)));
    expect(receivedKeys()).toHaveLength(keysOf(all).length); // and no duplicates
    const stats = feed.stats();
    expect(stats.reconnects).toBe(1);
    expect(stats.gaps).toHaveLength(1);
    expect(stats.gaps[0]!.to!.getTime()).toBeGreaterThan(stats.gaps[0]!.from.getTime());
    // Only successful transactions that never arrived live are fetched.
    const fetched = missed.filter((t) => t.err === null).length;
    expect(stats.backfill).toEqual({ runs: 1, transactions: fetched, events: missedKeys.length, incomplete: 0 });
    expect(fake.calls('getTransaction')).toBe(fetched);
    // Backfilled events carry the block time, live ones the program's own timestamp: both real times.
    expect(received.every((e) => Math.abs(e.at.getTime() / 1000 - 1_783_165_100) < 120)).toBe(true);
  });

  it('counts bad and truncated frames, logs them, and keeps going', async () => {
    const good = fake.publish(20);
    await waitFor('live events', () => received.length === keysOf(good).length);
    fake.sendRaw('garbage');
    fake.sendRaw('{"jsonrpc":"2.0","method":"logsNotification","params":{"subscription":');
    fake.sendRaw('{"jsonrpc":"2.0","result":"unexpected"}');
    fake.sendToSubscriptions((subscription) =>
      JSON.stringify({
        jsonrpc: '2.0',
        method: 'logsNotification',
        params: {
          subscription,
          result: {
            context: { slot: 430727999 },
            value: {
              signature: '1'.repeat(88),
              err: null,
              logs: [`Program ${PUMP_PROGRAM_ID} invoke [1]`, 'Program data: G3KpTd7rY3YAAA==', `Program ${PUMP_PROGRAM_ID} success`],
            },
          },
        },
      }),
    );
    const rest = fake.publish();
    await waitFor('the rest', () => received.length === keysOf([...good, ...rest]).length);
    expect(feed.stats()).toMatchObject({ badFrames: 4, reconnects: 0, connected: true });
  });

  it('drops a connection whose pings go unanswered, reconnects, and backfills nothing when nothing was missed', async () => {
    fake.publish(10);
    await waitFor('live frames', () => feed.stats().framesReceived === 11);
    fake.setAnswerPings(false);
    await waitFor('a reconnect', () => feed.stats().reconnects === 1, 3000);
    fake.setAnswerPings(true);
    await feed.flushed();
    const stats = feed.stats();
    expect(stats.gaps).toHaveLength(1);
    expect(stats.backfill).toMatchObject({ runs: 1, transactions: 0, incomplete: 0 });
    expect(fake.calls('getSignaturesForAddress')).toBe(1);
  });

  it('records the gap as unfilled when the RPC node is down during the backfill', async () => {
    const before = fake.publish(30);
    await waitFor('live events', () => received.length === keysOf(before).length);
    fake.handle('getSignaturesForAddress', () => {
      throw new Error('node down');
    });
    fake.dropConnections();
    await waitFor('a reconnect', () => feed.stats().reconnects === 1);
    await feed.flushed();
    expect(feed.stats().backfill).toMatchObject({ runs: 1, incomplete: 1, transactions: 0 });
    expect(feed.stats().connected).toBe(true);
  });
});
