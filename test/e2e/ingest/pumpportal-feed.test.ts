import { eventKey, type LaunchEvent } from '../../../domain/launch/launch-events';
import { PumpPortalFeed } from '../../../ingest/pumpportal/pumpportal-feed';
import { createLogger } from '../../../platform/logger';
import { startPumpPortalServer, tradeFrame, type PumpPortalFake } from '../../fakes/pumpportal-server';

const logger = createLogger('silent', 'pumpportal-test');
const MINT_A = 'CJiJAKFMD7HruUZwDhK5vBPV379yGhnR7YuLNbFxpump';
const MINT_B = 'GzwTkWAtFZJymqo3DbrHopLG7kCwkFhGUYtvb9APpump';
const TRADER = '6Q9413Rt2YTH2rKCjVueFwnxM4Ri472EmrgRPDzMyxxf';
const sig = (c: string) => c.repeat(88);

async function waitFor(what: string, cond: () => boolean, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

let fake: PumpPortalFake;
let feed: PumpPortalFeed;
let received: LaunchEvent[];

function startFeed(opts: { apiKey?: boolean; maxTrackedMints?: number } = {}) {
  feed = new PumpPortalFeed({
    url: opts.apiKey === false ? fake.url : `${fake.url}?api-key=test-key`,
    logger,
    backoff: { baseMs: 20, maxMs: 100 },
    pingIntervalMs: 200,
    batch: { maxEvents: 50, maxDelayMs: 10 },
    maxTrackedMints: opts.maxTrackedMints,
  });
  feed.start(async (events) => void received.push(...events));
}
const methods = (connection?: number) =>
  fake
    .received()
    .filter((m) => connection === undefined || m.connection === connection)
    .map((m) => m.method);

beforeEach(async () => {
  fake = await startPumpPortalServer();
  received = [];
});

afterEach(async () => {
  await feed.stop();
  await fake.close();
});

describe('PumpPortal feed against a local PumpPortal-style server', () => {
  it('subscribes to new tokens and migrations and delivers the recorded session as events', async () => {
    startFeed({ apiKey: false });
    await waitFor('subscriptions', () => methods().length === 2);
    expect(methods()).toEqual(['subscribeNewToken', 'subscribeMigration']);
    fake.publish();
    await waitFor('all events', () => received.length === 187 + 167 + 7);
    await feed.flushed();
    const kinds = received.reduce<Record<string, number>>((m, e) => ({ ...m, [e.kind]: (m[e.kind] ?? 0) + 1 }), {});
    expect(kinds).toEqual({ create: 187, trade: 167, migrate: 7 });
    expect(new Set(received.map(eventKey)).size).toBe(received.length);
    // 2 acknowledgements + 205 event frames; the broken creates are bad, the other launchpad's ignored.
    expect(feed.stats()).toMatchObject({ connected: true, framesReceived: 207, badFrames: 10, ignoredFrames: 1, eventsEmitted: 361, reconnects: 0, gaps: [] });
  });

  it('follows tracked mints, and re-sends every subscription after a reconnect', async () => {
    startFeed();
    feed.track([MINT_A, MINT_B]);
    await waitFor('trade subscription', () => JSON.stringify(fake.tradeSubscriptions()) === JSON.stringify([[MINT_A, MINT_B].sort()]));
    expect(fake.received().map((m) => [m.method, m.keys])).toEqual([
      ['subscribeNewToken', undefined],
      ['subscribeMigration', undefined],
      ['subscribeTokenTrade', [MINT_A, MINT_B]],
    ]);
    fake.sendTrade(
      tradeFrame({ signature: sig('2'), mint: MINT_A, trader: TRADER, isBuy: true, sol: 0.5, tokens: 17_000_000.5, vSol: 30.5, vTokens: 1_056_000_000 }),
    );
    await waitFor('the trade', () => received.length === 1);
    expect(received[0]).toMatchObject({ kind: 'trade', mint: MINT_A, solLamports: 500_000_000, tokensRaw: 17_000_000_500_000, isBuy: true, ordinal: 0 });

    feed.untrack([MINT_A]);
    await waitFor('unsubscribe', () => JSON.stringify(fake.tradeSubscriptions()) === JSON.stringify([[MINT_B]]));

    fake.setAcceptConnections(false);
    fake.dropConnections();
    await waitFor('the loss', () => !feed.stats().connected);
    const missed = fake.publish(5);
    await new Promise((r) => setTimeout(r, 100));
    fake.setAcceptConnections(true);
    await waitFor('the reconnect', () => feed.stats().reconnects === 1 && fake.connections() === 1);
    await waitFor('resubscriptions', () => JSON.stringify(fake.tradeSubscriptions()) === JSON.stringify([[MINT_B]]));

    const second = Math.max(...fake.received().map((m) => m.connection));
    expect(
      fake
        .received()
        .filter((m) => m.connection === second)
        .map((m) => [m.method, m.keys]),
    ).toEqual([
      ['subscribeNewToken', undefined],
      ['subscribeMigration', undefined],
      ['subscribeTokenTrade', [MINT_B]],
    ]);
    const stats = feed.stats();
    expect(stats.gaps).toHaveLength(1);
    expect(stats.gaps[0]!.to).not.toBeNull();
    // The protocol has no history: what was sent while down is this feed's gap, for another feed to fill.
    const missedSigs = new Set(missed.map((raw) => (JSON.parse(raw) as { signature: string }).signature));
    expect(received.filter((e) => missedSigs.has(e.signature))).toEqual([]);

    fake.sendTrade(
      tradeFrame({ signature: sig('3'), mint: MINT_B, trader: TRADER, isBuy: false, sol: 0.25, tokens: 8_000_000, vSol: 30.25, vTokens: 1_064_000_000 }),
    );
    fake.sendTrade(
      tradeFrame({ signature: sig('3'), mint: MINT_B, trader: TRADER, isBuy: false, sol: 0.1, tokens: 3_000_000, vSol: 30.15, vTokens: 1_067_000_000 }),
    );
    await waitFor('trades after the reconnect', () => received.filter((e) => e.mint === MINT_B).length === 2);
    expect(received.filter((e) => e.mint === MINT_B).map((e) => e.ordinal)).toEqual([0, 1]);
  });

  it('counts bad frames, survives them, and reports refused trade subscriptions without crashing', async () => {
    startFeed({ apiKey: false });
    feed.track([MINT_A]);
    await waitFor('the refusal notice', () => feed.stats().framesReceived === 3);
    fake.sendRaw('garbage');
    fake.sendRaw('{"txType":"create","mint":');
    fake.sendRaw(JSON.stringify({ txType: 'buy', signature: sig('4'), mint: MINT_A }));
    const later = fake.publish(3);
    expect(JSON.parse(later[0]!)).toMatchObject({ txType: 'create', mint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' }); // a broken create
    await waitFor('later events', () => received.length > 0);
    expect(feed.stats()).toMatchObject({ badFrames: 3 + 1, connected: true, reconnects: 0, trackedMints: 1 });
  });

  it('refuses to track more mints than configured', async () => {
    startFeed({ maxTrackedMints: 1 });
    feed.track([MINT_A, MINT_B]);
    expect(feed.stats()).toMatchObject({ trackedMints: 1, trackRefused: 1 });
  });
});
