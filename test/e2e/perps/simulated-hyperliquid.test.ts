import type { HlClearinghouseState, HlTrade } from '../../../clients/hyperliquid/hyperliquid-mapping';
import { toWalletFill } from '../../../clients/hyperliquid/hyperliquid-mapping';
import { createHyperliquidInfoClient } from '../../../clients/hyperliquid/hyperliquid-info-client';
import { HyperliquidStream } from '../../../clients/hyperliquid/hyperliquid-stream';
import { detectEntries, type DetectedEntry } from '../../../domain/perps/entry-detection';
import { judgeWallet } from '../../../domain/perps/smart-rule';
import { walletRecord } from '../../../domain/perps/wallet-record';
import { startSimulatedHyperliquid, type SimulatedHyperliquid } from '../../../ingest/perps-simulator/simulated-hyperliquid-server';
import { createLogger } from '../../../platform/logger';

const START = Date.UTC(2026, 10, 20, 12);
let clock = START;
let hl: SimulatedHyperliquid;

beforeAll(async () => {
  hl = await startSimulatedHyperliquid({ seed: 11, wallets: 300, warmupMs: 24 * 3_600_000, retailTradesPerSecond: 10, tickMs: 50, now: () => clock });
});
afterAll(() => hl.close());

describe('the production Hyperliquid client against the simulated exchange (the embedded default)', () => {
  const client = () => createHyperliquidInfoClient({ baseUrl: hl.url, weightPerMinute: 1_000_000 });

  it('reads every market, mid, wallet state and fill list the simulator holds through the real wire format', async () => {
    const c = client();
    const markets = await c.markets();
    expect(markets.map((m) => m.market)).toEqual([...hl.simulator.markets.keys()]);
    for (const m of markets) {
      expect(m.markPx).toBeGreaterThan(0);
      expect(m.volume24hUsd).toBeGreaterThan(0);
      expect(m.openInterestUsd).toBeGreaterThan(0);
    }
    const mids = await c.allMids();
    expect(Object.keys(mids)).toEqual(markets.map((m) => m.market));
    const holder = hl.simulator.wallets.find((w) => w.positions.size > 0)!;
    const state = await c.clearinghouseState(holder.address);
    expect(state.positions.map((p) => p.market).sort()).toEqual([...holder.positions.keys()].sort());
    const fills = await c.userFills(holder.address);
    expect(fills.length).toBe(holder.fills.length);
    const [fundingCoin] = [...hl.simulator.markets.keys()];
    // Hourly funding from 06:00 to 12:00 inclusive.
    const funding = await c.fundingHistory(fundingCoin!, START - 6 * 3_600_000);
    expect(funding.map((f) => f.time)).toEqual(Array.from({ length: 7 }, (_, i) => START - (6 - i) * 3_600_000));
  });

  it('streams the simulated trades and mids over the websocket', async () => {
    const trades: HlTrade[] = [];
    let mids = 0;
    const stream = new HyperliquidStream(
      { url: hl.wsUrl, logger: createLogger('silent', 'sim-test'), coins: ['BTC', 'ETH', 'SOL'], mids: true },
      { trades: (t) => void trades.push(...t), mids: () => void mids++ },
    );
    stream.start();
    const until = Date.now() + 5000;
    while (hl.connections() === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 100));
    clock += 60_000;
    while ((trades.length === 0 || mids === 0) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    await stream.stop();
    expect(trades.length).toBeGreaterThan(0);
    expect(trades.every((t) => ['BTC', 'ETH', 'SOL'].includes(t.market))).toBe(true);
    expect(trades.every((t) => t.time > START && t.notionalUsd > 0)).toBe(true);
    expect(stream.stats().badFrames).toBe(0);
  });

  it('yields smart-money entries when watched wallets are snapshotted twice', async () => {
    const c = client();
    const wallets = hl.simulator.wallets.map((w) => w.address);
    const snapshot = async () =>
      new Map<string, HlClearinghouseState>(await Promise.all(wallets.map(async (w) => [w, await c.clearinghouseState(w)] as const)));
    const before = await snapshot();
    clock += 20 * 60_000;
    const after = await snapshot();
    const marks = await c.allMids();
    const entries: DetectedEntry[] = [];
    for (const w of wallets) {
      const fills = (await c.userFills(w)).map(toWalletFill);
      const record = walletRecord(w, fills, after.get(w)!, clock);
      entries.push(...detectEntries(before.get(w)!, after.get(w)!, { marks, walletRoi30d: record.roi30d, verdict: judgeWallet(record) }));
    }
    expect(entries.length).toBeGreaterThan(10);
    expect(entries.filter((e) => e.smart).length).toBeGreaterThan(0);
    for (const e of entries) {
      expect(e.detectedAt).toBe(clock);
      expect(e.priceAtDetection).toBe(marks[e.market]);
      expect(e.size).toBeGreaterThan(0);
    }
  });
});
