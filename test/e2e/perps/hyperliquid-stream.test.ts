import type { HlTrade } from '../../../clients/hyperliquid/hyperliquid-mapping';
import { HyperliquidStream } from '../../../clients/hyperliquid/hyperliquid-stream';
import { createLogger } from '../../../platform/logger';
import { startHyperliquidServer, type HyperliquidFake } from '../../fakes/hyperliquid-server';

const logger = createLogger('silent', 'hyperliquid-stream-test');

async function waitFor(what: string, cond: () => boolean, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

let hl: HyperliquidFake;
let stream: HyperliquidStream;
let trades: HlTrade[];
let mids: Record<string, number>[];
let gaps: string[];

function start(coins: string[], appPingIntervalMs = 50_000) {
  stream = new HyperliquidStream(
    { url: hl.wsUrl, logger, coins, mids: true, backoff: { baseMs: 20, maxMs: 100 }, pingIntervalMs: 500, appPingIntervalMs },
    { trades: (t) => void trades.push(...t), mids: (m) => void mids.push(m), gap: (_at, reason) => void gaps.push(reason) },
  );
  stream.start();
}
const subscribed = (n: number) => () => hl.subscriptions().length === 1 && hl.subscriptions()[0]!.mids && hl.subscriptions()[0]!.trades.length === n;

beforeEach(async () => {
  hl = await startHyperliquidServer();
  trades = [];
  mids = [];
  gaps = [];
});
afterEach(async () => {
  await stream.stop();
  await hl.close();
});

describe('Hyperliquid stream against a local server speaking the websocket protocol', () => {
  it('subscribes to trades per coin and all mids, and delivers frames built from the recorded fills', async () => {
    const frames = hl.recordedTradeFrames();
    const coins = [...new Set(frames.map((f) => f.coin))].sort();
    start(coins);
    await waitFor('subscriptions', subscribed(coins.length));
    expect(hl.received().map((m) => JSON.parse(m.raw))).toEqual([
      ...coins.map((coin) => ({ method: 'subscribe', subscription: { type: 'trades', coin } })),
      { method: 'subscribe', subscription: { type: 'allMids' } },
    ]);
    hl.publishTrades(frames);
    hl.publishMids(hl.recordedMids);
    await waitFor('every trade', () => trades.length === frames.length && mids.length === 1);
    const first = frames.find((f) => f.coin === trades[0]!.market)!;
    expect(trades[0]).toEqual({
      market: first.coin,
      side: first.side === 'B' ? 'buy' : 'sell',
      px: Number(first.px),
      size: Number(first.sz),
      notionalUsd: Number(first.px) * Number(first.sz),
      time: first.time,
      tid: first.tid,
      hash: first.hash,
      buyer: first.users[0],
      seller: first.users[1],
    });
    expect(mids[0]!.ETH).toBe(1903.95);
    expect(stream.stats()).toMatchObject({ connected: true, trades: frames.length, midsFrames: 1, badFrames: 0, reconnects: 0 });
  });

  it('reconnects after the server drops it, reports the gap and subscribes again', async () => {
    start(['BTC', 'SUI']);
    await waitFor('subscriptions', subscribed(2));
    hl.dropConnections();
    await waitFor('the gap', () => gaps.length === 1);
    await waitFor('resubscribed', () => stream.stats().reconnects === 1 && subscribed(2)());
    const second = hl
      .received()
      .filter((m) => m.connection === 2)
      .map((m) => JSON.parse(m.raw).subscription);
    expect(second).toEqual([{ type: 'trades', coin: 'BTC' }, { type: 'trades', coin: 'SUI' }, { type: 'allMids' }]);
    hl.publishTrades(
      hl
        .recordedTradeFrames()
        .filter((f) => f.coin === 'SUI')
        .slice(0, 3),
    );
    await waitFor('trades after the reconnect', () => trades.length === 3);
  });

  it('counts a frame whose shape changed and delivers nothing from it, staying connected', async () => {
    start(['SUI']);
    await waitFor('subscriptions', subscribed(1));
    const [frame] = hl.recordedTradeFrames();
    hl.sendRaw(JSON.stringify({ channel: 'trades', data: [{ ...frame, px: 1.3189 }] }));
    hl.sendRaw('not json');
    await waitFor('bad frames counted', () => stream.stats().badFrames === 2);
    expect(trades).toEqual([]);
    expect(stream.stats().connected).toBe(true);
  });

  it('keeps the connection alive with the application-level ping the exchange expects', async () => {
    start(['SUI'], 50);
    await waitFor('pings', () => hl.received().filter((m) => m.raw === '{"method":"ping"}').length >= 2);
    expect(stream.stats().badFrames).toBe(0);
  });
});
