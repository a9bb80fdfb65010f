import { PerpsSimulator } from '../../../ingest/perps-simulator/perps-simulator';
import { dec, px, simInfoAnswer } from '../../../ingest/perps-simulator/sim-info-answers';
import { MAX_FILLS_PER_WALLET } from '../../../ingest/perps-simulator/sim-wallets';

const START = Date.UTC(2026, 10, 20);
const make = (seed = 7) => new PerpsSimulator({ seed, startAt: START, wallets: 150, warmupMs: 12 * 3_600_000, retailTradesPerSecond: 5 });
const answer = (sim: PerpsSimulator, body: Record<string, unknown>) => JSON.parse(simInfoAnswer(sim, body).body);

describe('perps simulator', () => {
  it('is a function of seed, start and time, however the advance is split', () => {
    const a = make();
    const b = make();
    a.advanceTo(START + 120_000);
    for (let t = START; t <= START + 120_000; t += 7_000) b.advanceTo(t);
    b.advanceTo(START + 120_000);
    expect(answer(a, { type: 'metaAndAssetCtxs' })).toEqual(answer(b, { type: 'metaAndAssetCtxs' }));
    const w = a.wallets.find((x) => x.fills.length > 0)!;
    expect(answer(a, { type: 'userFills', user: w.address })).toEqual(answer(b, { type: 'userFills', user: w.address }));
    expect(a.drainTrades()).toEqual(b.drainTrades());
    expect(answer(make(8), { type: 'allMids' })).not.toEqual(answer(make(7), { type: 'allMids' }));
  });

  it('gives wallets a history of closed entries before the first live second, and live trades after it', () => {
    const sim = make();
    expect(sim.drainTrades()).toEqual([]);
    expect(sim.wallets.filter((w) => w.fills.some((f) => f.closedPnl !== 0)).length).toBeGreaterThan(100);
    sim.advanceTo(START + 60_000);
    const trades = sim.drainTrades();
    expect(trades.length).toBeGreaterThan(100);
    expect(trades.every((t) => t.time > START && t.time <= START + 60_000 && t.buyer !== t.seller)).toBe(true);
  });

  it('keeps its buffers bounded: fills per wallet, funding history, the 24 h volume ring', () => {
    const sim = new PerpsSimulator({ seed: 1, startAt: START, wallets: 20, warmupMs: 40 * 24 * 3_600_000 });
    for (const w of sim.wallets) expect(w.fills.length).toBeLessThanOrEqual(MAX_FILLS_PER_WALLET);
    for (const m of sim.markets.values()) {
      expect(m.fundingHistory.length).toBeLessThanOrEqual(24 * 30);
      expect(m.hourlyMarks.length).toBeLessThanOrEqual(25);
      // One day of background volume at the least, never a growing lifetime sum.
      expect(m.volumeSum).toBeGreaterThanOrEqual(m.spec.backgroundVolumePerMin * 1439);
      expect(m.volumeSum).toBeLessThan(m.spec.backgroundVolumePerMin * 1440 * 50);
    }
  });

  it('answers in Hyperliquid wire format: decimal strings, newest fills first, 422 for what it does not model', () => {
    const sim = make();
    const [meta, ctxs] = answer(sim, { type: 'metaAndAssetCtxs' });
    expect(meta.universe.length).toBe(ctxs.length);
    for (const c of ctxs) for (const k of ['funding', 'openInterest', 'dayNtlVlm', 'markPx', 'oraclePx', 'prevDayPx']) expect(c[k]).toMatch(/^-?\d+(\.\d+)?$/);
    const w = sim.wallets.find((x) => x.fills.length > 3)!;
    const fills = answer(sim, { type: 'userFills', user: w.address }) as { time: number }[];
    expect(fills.map((f) => f.time)).toEqual([...fills.map((f) => f.time)].sort((x, y) => y - x));
    expect(simInfoAnswer(sim, { type: 'l2Book', coin: 'BTC' }).status).toBe(422);
    expect(answer(sim, { type: 'clearinghouseState', user: '0x0000000000000000000000000000000000000000' })).toMatchObject({
      assetPositions: [],
      marginSummary: { accountValue: '0.0' },
    });
  });

  it('formats decimals the way the exchange does', () => {
    expect([dec(26951), dec(-0.00785, 5), dec(1e-13), dec(0.1 + 0.2, 6)]).toEqual(['26951.0', '-0.00785', '0.0', '0.3']);
    expect([px(60123.456), px(3001.2345), px(0.0123456)]).toEqual(['60123.0', '3001.2', '0.012346']);
  });
});
