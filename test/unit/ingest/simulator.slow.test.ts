import bs58 from 'bs58';
import { CURVE, eventKey, type CreateEvent, type LaunchEvent, type TradeEvent } from '../../../domain/launch/launch-events';
import { AddressBook } from '../../../ingest/simulator/address-book';
import { buy, initialReserves, sell } from '../../../ingest/simulator/curve-math';
import { createMarketSimulator, type MarketSimulatorOptions } from '../../../ingest/simulator/market-simulator';
import { SeededRandom } from '../../../ingest/simulator/seeded-random';
import { createSimulatorFeed } from '../../../ingest/simulator/simulator-feed';
import { nextArrivalS } from '../../../ingest/simulator/trade-intensity';

const MIN = 60_000;
const HOUR = 3_600_000;

const run = (opts: MarketSimulatorOptions, toMs: number, fromMs = 0) => [...createMarketSimulator({ startMs: 0, ...opts }).events(fromMs, toMs)];

describe('seeded random', () => {
  it('reproduces a stream from its seed and derives independent streams', () => {
    const a = new SeededRandom(7);
    const b = new SeededRandom(7);
    const xs = Array.from({ length: 100 }, () => a.float());
    expect(Array.from({ length: 100 }, () => b.float())).toEqual(xs);
    expect(SeededRandom.derive(7, 'mint', 1).float()).not.toBe(SeededRandom.derive(7, 'mint', 2).float());
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
  });

  it('draws from the documented distributions', () => {
    const r = new SeededRandom(1);
    const n = 20_000;
    const mean = (f: () => number) => Array.from({ length: n }, f).reduce((s, x) => s + x, 0) / n;
    expect(mean(() => r.exponential(2))).toBeCloseTo(0.5, 1);
    expect(mean(() => r.poisson(3))).toBeCloseTo(3, 1);
    const logs = Array.from({ length: n }, () => Math.log(r.lognormal(5, 0.5))).sort((x, y) => x - y);
    expect(Math.exp(logs[n / 2]!)).toBeCloseTo(5, 0);
  });
});

describe('curve math', () => {
  it('never lets k decrease and caps the completing buy at the real reserve', () => {
    let r = initialReserves();
    const k = (x: typeof r) => BigInt(x.vSolLamports) * BigInt(x.vTokensRaw);
    const k0 = k(r);
    const b = buy(r, 1_234_567_891)!;
    expect(k(b)).toBeGreaterThanOrEqual(k0);
    const s = sell(b, Math.floor(b.tokensRaw / 3))!;
    expect(k(s)).toBeGreaterThanOrEqual(k(b));
    r = buy(s, 500e9)!; // far more than the curve can take
    expect(r.vTokensRaw).toBe(CURVE.initialVTokensRaw - CURVE.realTokensForSaleRaw);
    expect(r.vSolLamports).toBeGreaterThanOrEqual(CURVE.graduationVSolLamports);
    expect(r.vSolLamports).toBeLessThan(115.1e9);
    expect(buy(r, 1e9)).toBeNull();
  });
});

describe('trade intensity', () => {
  it('runs out of arrivals in a decaying phase and keeps going in a growing one', () => {
    const decaying = [{ startS: 0, rate0: 1, growth: -1 / 10 }]; // 10 trades expected in total
    expect(nextArrivalS(decaying, 0, 11)).toBeNull();
    expect(nextArrivalS(decaying, 0, 5)).toBeCloseTo(-10 * Math.log(0.5), 6);
    const growing = [{ startS: 0, rate0: 0.1, growth: 0.01, maxRate: 1 }];
    expect(nextArrivalS(growing, 1000, 1)).toBeCloseTo(1001, 6); // capped at 1/s by then
  });
});

describe('market simulator', () => {
  const hour = run({ seed: 42 }, HOUR);
  const byMint = new Map<string, LaunchEvent[]>();
  for (const e of hour) {
    const list = byMint.get(e.mint);
    if (list) list.push(e);
    else byMint.set(e.mint, [e]);
  }

  it('is deterministic by seed, whatever the windows it is read in', () => {
    const a = run({ seed: 9 }, 10 * MIN);
    const sim = createMarketSimulator({ seed: 9, startMs: 0 });
    const b = [...sim.events(0, 4 * MIN), ...sim.events(4 * MIN, 10 * MIN)];
    expect(b).toEqual(a);
    expect(run({ seed: 10 }, 10 * MIN)).not.toEqual(a);
    expect(() => [...sim.events(5 * MIN, 11 * MIN)]).toThrow(RangeError);
  });

  it('emits events in time order with increasing slots (~2.5 per second)', () => {
    // Violations are collected rather than asserted per event: 70k expect() calls alone take seconds.
    const disorder = hour.filter((e, i) => i > 0 && (e.at < hour[i - 1]!.at || e.slot! < hour[i - 1]!.slot!));
    expect(disorder).toEqual([]);
    const last = hour[hour.length - 1]!;
    expect((last.slot! - hour[0]!.slot!) / ((last.at.getTime() - hour[0]!.at.getTime()) / 1000)).toBeCloseTo(2.5, 1);
  });

  it('gives every event valid base58 keys, a unique key and the simulator source', () => {
    const keys = new Set(hour.map(eventKey));
    expect(keys.size).toBe(hour.length);
    for (const e of hour.slice(0, 5000)) {
      expect(e).toMatchObject({ source: 'simulator', ordinal: 0 });
      expect(bs58.decode(e.signature)).toHaveLength(64);
      expect(bs58.decode(e.mint)).toHaveLength(32);
      if (e.kind === 'trade') expect(bs58.decode(e.trader)).toHaveLength(32);
      if (e.kind === 'create') expect(bs58.decode(e.creator)).toHaveLength(32);
    }
    // One transaction per trade; a create shares its transaction only with the dev buy.
    const tradeSigs = hour.filter((e) => e.kind === 'trade').map((e) => e.signature);
    expect(new Set(tradeSigs).size).toBe(tradeSigs.length);
  });

  it('keeps each curve on the constant product: k never decreases, vSol stays in [30, ~115] SOL', () => {
    const bad: string[] = [];
    let checkedTrades = 0;
    for (const events of byMint.values()) {
      const create = events.find((e): e is CreateEvent => e.kind === 'create');
      if (!create) continue;
      if (create.vSolLamports !== CURVE.initialVSolLamports) bad.push(`${create.mint}: starts at ${create.vSolLamports}`);
      let prev = { vSolLamports: create.vSolLamports, vTokensRaw: create.vTokensRaw };
      for (const t of events) {
        if (t.kind !== 'trade') continue;
        const kPrev = BigInt(prev.vSolLamports) * BigInt(prev.vTokensRaw);
        if (BigInt(t.vSolLamports) * BigInt(t.vTokensRaw) < kPrev) bad.push(`${t.signature}: k decreased`);
        if (t.vSolLamports - prev.vSolLamports !== (t.isBuy ? t.solLamports : -t.solLamports)) bad.push(`${t.signature}: SOL does not add up`);
        if (t.vTokensRaw - prev.vTokensRaw !== (t.isBuy ? -t.tokensRaw : t.tokensRaw)) bad.push(`${t.signature}: tokens do not add up`);
        if (t.vSolLamports < 30e9 || t.vSolLamports >= 115.1e9) bad.push(`${t.signature}: vSol ${t.vSolLamports}`);
        prev = t;
        checkedTrades++;
      }
    }
    expect(bad).toEqual([]);
    expect(checkedTrades).toBeGreaterThan(10_000);
  });

  it('completes a curve at the graduation vSol, then migrates it in a later transaction', () => {
    const graduated = [...byMint.values()].filter((es) => es.some((e) => e.kind === 'complete'));
    expect(graduated.length).toBeGreaterThan(0);
    for (const es of graduated) {
      const i = es.findIndex((e) => e.kind === 'complete');
      const completing = es[i - 1] as TradeEvent;
      expect(completing).toMatchObject({ kind: 'trade', isBuy: true, signature: es[i]!.signature });
      expect(completing.vSolLamports).toBeGreaterThanOrEqual(CURVE.graduationVSolLamports);
      const rest = es.slice(i + 1);
      expect(rest.length).toBeLessThanOrEqual(1);
      if (rest[0]) expect(rest[0]).toMatchObject({ kind: 'migrate' });
    }
  });

  it('has bots: bundles in the creation slot and snipers in the first seconds', () => {
    let bundled = 0;
    let sniped = 0;
    for (const es of byMint.values()) {
      const create = es[0];
      if (create?.kind !== 'create') continue;
      const buys = es.filter((e): e is TradeEvent => e.kind === 'trade' && e.isBuy && e.trader !== create.creator);
      if (buys.filter((b) => b.slot === create.slot).length >= 2) bundled++;
      if (buys.some((b) => b.at.getTime() - create.at.getTime() >= 400 && b.at.getTime() - create.at.getTime() <= 2500)) sniped++;
    }
    const launches = [...byMint.values()].filter((es) => es[0]?.kind === 'create').length;
    expect(bundled / launches).toBeGreaterThan(0.1);
    expect(sniped / launches).toBeGreaterThan(0.5);
  });

  it('lands near the configured graduation share over a simulated day, with runner creators graduating far more', () => {
    const opts = { seed: 3, launchesPerSecond: 0.05, graduationShare: 0.05, mayhemShare: 0.15 };
    const events = run(opts, 26 * HOUR);
    const created = new Map<string, CreateEvent>();
    for (const e of events) if (e.kind === 'create' && e.at.getTime() < 24 * HOUR) created.set(e.mint, e);
    const completed = new Set(events.filter((e) => e.kind === 'complete' && created.has(e.mint)).map((e) => e.mint));
    const share = completed.size / created.size;
    expect(created.size).toBeGreaterThan(4000);
    expect(share).toBeGreaterThan(0.05 * 0.75);
    expect(share).toBeLessThan(0.05 * 1.25);

    const mayhem = [...created.values()].filter((c) => c.mayhem).length / created.size;
    expect(mayhem).toBeGreaterThan(0.13);
    expect(mayhem).toBeLessThan(0.17);

    const book = new AddressBook(3);
    const runners = new Set(Array.from({ length: 40 }, (_, i) => book.wallet('creator-runner', i)));
    const runnerLaunches = [...created.values()].filter((c) => runners.has(c.creator));
    const runnerShare = runnerLaunches.filter((c) => completed.has(c.mint)).length / runnerLaunches.length;
    expect(runnerLaunches.length).toBeGreaterThan(20);
    expect(runnerShare).toBeGreaterThan(4 * share);
  });

  it('lands near the default 1% at the default market shape', () => {
    const sim = createMarketSimulator({ seed: 5, startMs: 0, launchesPerSecond: 0.1, mayhemShare: 0 });
    let launches = 0;
    const created = new Set<string>();
    let grads = 0;
    for (const e of sim.events(0, 26 * HOUR)) {
      if (e.kind === 'create' && e.at.getTime() < 24 * HOUR) {
        launches++;
        created.add(e.mint);
      }
      if (e.kind === 'complete' && created.has(e.mint)) grads++;
    }
    expect(grads / launches).toBeGreaterThan(0.0065);
    expect(grads / launches).toBeLessThan(0.0135);
  });

  it('keeps state only for live mints: dead, graduated and aged-out mints are dropped', () => {
    const sim = createMarketSimulator({ seed: 11, startMs: 0, maxAgeMs: HOUR });
    let events = 0;
    for (const _ of sim.events(0, 1.5 * HOUR)) events++;
    const early = sim.stats();
    for (const _ of sim.events(1.5 * HOUR, 4 * HOUR)) events++;
    const late = sim.stats();
    expect(events).toBeGreaterThan(100_000);
    expect(late.dropped.aged).toBeGreaterThan(0);
    expect(late.dropped.dead).toBeGreaterThan(late.launches * 0.8);
    // Steady state: three times the launches, not three times the live mints.
    expect(late.peakActiveMints).toBeLessThan(early.peakActiveMints * 1.3);
    expect(late.activeMints).toBeLessThan(0.3 * 3600 * 0.6);
  });
});

describe('simulator feed', () => {
  it('delivers live, time-ordered batches in wall time and waits for the sink', async () => {
    const batches: LaunchEvent[][] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    let late = 0;
    const feed = createSimulatorFeed({ seed: 1, speed: 600, batchIntervalMs: 20 });
    const started = Date.now();
    feed.start(async (events) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      for (const e of events) if (e.at.getTime() > Date.now()) late++;
      await new Promise((r) => setTimeout(r, 30));
      batches.push(events);
      inFlight--;
    });
    await new Promise((r) => setTimeout(r, 600));
    await feed.stop();
    const all = batches.flat();
    expect(all.length).toBeGreaterThan(100);
    expect(maxInFlight).toBe(1);
    expect(late).toBe(0);
    expect(all[0]!.at.getTime()).toBeGreaterThanOrEqual(started);
    expect(all.filter((e, i) => i > 0 && e.at < all[i - 1]!.at)).toEqual([]);
    expect(feed.stats()).toMatchObject({ name: 'simulator', connected: false, eventsEmitted: all.length, framesReceived: batches.length, badFrames: 0 });
  });

  it('hands the event loop back between full batches when it is behind the clock', async () => {
    // A million times real time: every batch comes out full and the sink answers at once. Before the fix the
    // loop never let a timer run, so stop() was never called and it generated events until memory ran out.
    let turnAfterBatch5 = false;
    let turnedBeforeBatch15: boolean | null = null;
    let batches = 0;
    let reached!: () => void;
    const at15 = new Promise<void>((r) => (reached = r));
    const feed = createSimulatorFeed({ seed: 4, speed: 1_000_000, batchIntervalMs: 20, maxBatchEvents: 50 });
    feed.start(async () => {
      batches++;
      if (batches === 5) setImmediate(() => (turnAfterBatch5 = true));
      if (batches === 15) {
        turnedBeforeBatch15 = turnAfterBatch5;
        reached();
      }
      // Bounds the test if the loop starves: a failed delivery backs off on a timer.
      if (batches >= 15) throw new Error('enough');
    });
    await at15;
    await feed.stop();
    expect(turnedBeforeBatch15).toBe(true);
  });

  it('retries a batch the sink rejected instead of losing it', async () => {
    const delivered: LaunchEvent[][] = [];
    const rejected: LaunchEvent[][] = [];
    const errors: number[] = [];
    const feed = createSimulatorFeed({ seed: 2, speed: 2000, batchIntervalMs: 20, onSinkError: (_e, attempt) => errors.push(attempt) });
    feed.start(async (events) => {
      if (rejected.length === 0) {
        rejected.push(events);
        throw new Error('database down');
      }
      delivered.push(events);
    });
    await new Promise((r) => setTimeout(r, 500));
    await feed.stop();
    expect(errors).toEqual([1]);
    expect(delivered[0]).toEqual(rejected[0]);
  });
});
