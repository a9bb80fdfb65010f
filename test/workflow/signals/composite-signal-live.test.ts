import { createLiveTick } from '../../../activities';
import { createLaunchEventStore } from '../../../db/mint/launch-event-store';
import { createPredictionStore } from '../../../db/mint/prediction-store';
import { createPriceStore } from '../../../db/market/price-store';
import { seedSimulatedSmartWallets } from '../../../db/wallets/simulated-wallet-seed';
import { MARKET_CAP_FLOOR_USD } from '../../../domain/signals/cross-rules';
import { RollingThreshold } from '../../../domain/signals/rolling-threshold';
import { createMarketSimulator } from '../../../ingest/simulator/market-simulator';
import { hashSeed } from '../../../ingest/simulator/seeded-random';
import { simulatedSmartWallets } from '../../../ingest/simulator/simulated-smart-wallets';
import { call, startApi } from '../../support/api-harness';
import { areaContext } from '../../support/area-context';
import { expectConforms } from '../../support/contract';
import { createTestDatabase } from '../../support/test-db';

/**
 * The composite signal end to end on a simulated market, as `npm start` runs it: simulated launches ingested as
 * the clock moves, the simulator's smart wallets seeded into the wallet index, a SOL price cached, the live
 * projector's refresh every 2 s (the live area's activity, which evaluates the composite signal over the states it
 * holds), 60 s scores logged as the lifecycle would log them. Crosses appear, each once, above the market-cap
 * floor and the threshold; each becomes a signal with its outbox event when its tier is known; the threshold
 * survives a restart of the process that holds it; the feed serves them through HTTP.
 */
const SEED = 7;
const START = Math.floor(Date.now() / 1000) * 1000 - 6 * 60_000;
let clock = START;
let t: Awaited<ReturnType<typeof createTestDatabase>>;
let api: Awaited<ReturnType<typeof startApi>>;

beforeAll(async () => {
  t = await createTestDatabase();
  api = await startApi(t.db);
});
afterAll(async () => {
  await api.close();
  await t.drop();
});

/** The process under test: a fresh one has an empty memory (live model, threshold) and rebuilds from Postgres. */
const newProcess = () => createLiveTick(areaContext(t.db, { env: { LIVE_REFRESH_MS: '2000' }, now: () => new Date(clock) }));

describe('composite signal on a simulated market', () => {
  it('crosses, tiers and delivers each mint once, and keeps its threshold across a restart', async () => {
    expect(await seedSimulatedSmartWallets(t.db, simulatedSmartWallets(SEED), new Date(START))).toBe(500);
    await createPriceStore(t.db).recordQuote({
      symbol: 'SOL',
      mint: 'So11111111111111111111111111111111111111112',
      usd: 150,
      source: 'test',
      fetchedAt: new Date(START),
    });
    const events = [...createMarketSimulator({ seed: SEED, launchesPerSecond: 0.5, graduationShare: 0.05 }).events(START, START + 4 * 60_000)];
    const store = createLaunchEventStore(t.db);
    const predictions = createPredictionStore(t.db);
    const created = new Map<string, number>();
    const scored = new Set<string>();
    let next = 0;
    let p = newProcess();

    for (let step = 0; clock < START + 5 * 60_000; step++) {
      clock += 2_000;
      const due = [];
      while (next < events.length && events[next]!.at.getTime() <= clock) due.push(events[next++]!);
      if (due.length) await store.writeBatch(due);
      for (const e of due) if (e.kind === 'create' && !e.mayhem) created.set(e.mint, e.at.getTime());
      // The lifecycle's 60 s score, with a deterministic spread of probabilities over the tiers.
      for (const [mint, at] of created) {
        if (scored.has(mint) || clock - at < 60_000) continue;
        scored.add(mint);
        const gp = [0.4, 0.18, 0.03][hashSeed(SEED, mint) % 3]!;
        await predictions.insertOnce({
          mint,
          ageBucket: 60,
          asOf: new Date(at + 60_000),
          predictedAt: new Date(clock),
          gradProb: gp,
          rawProb: gp,
          modelVersion: 'test',
          features: {},
          calibration: {},
          priceSol: 1e-8,
          rugProb: null,
          runnerOdds: null,
          survivalProb: null,
          modelVersions: {},
          rugFeatures: {},
          context: {},
        });
      }
      if (step === 75) p = newProcess(); // a restart mid-run: memory gone, Postgres and the saved threshold remain
      await p.refreshLiveSnapshot();
    }

    const crosses = await t.db('composite_predictions').orderBy('id');
    expect(crosses.length).toBeGreaterThanOrEqual(3);
    expect(new Set(crosses.map((c) => c.mint)).size).toBe(crosses.length);
    for (const c of crosses) {
      expect(c.smart_money_in).toBeGreaterThanOrEqual(1);
      expect(c.mc_at_cross_usd).toBeGreaterThan(MARKET_CAP_FLOOR_USD);
      expect(c.composite_score).toBeGreaterThanOrEqual(c.threshold_at_cross);
      expect(c.age_s).toBeLessThan(120);
      expect(c.price_at_cross_sol).toBeGreaterThan(0);
    }
    // Every cross is tiered by now (its 60 s score or its 75 s deadline), each once, with one outbox event.
    const tiered = crosses.filter((c) => c.tier !== null);
    expect(tiered.length).toBe(crosses.filter((c) => created.get(c.mint)! + 75_000 <= clock - 2_000).length);
    const signals = await t.db('signals').orderBy('cursor');
    expect(signals.length).toBe(tiered.length);
    expect(await t.db('event_outbox').where({ kind: 'composite_signal' }).count('* as n').first()).toEqual({ n: signals.length });
    for (const c of tiered) expect(c.tier).toBe(c.gp_60 === null ? 'SCOUT' : c.gp_60 >= 0.25 ? 'ACT' : c.gp_60 >= 0.1 ? 'WATCH' : 'SCOUT');

    // The threshold kept its history across the restart: one unbroken sample from the start of the run.
    const state = await t.db('composite_threshold_state').first();
    const reading = RollingThreshold.deserialize(state.state).threshold(clock);
    expect(reading.historyS).toBeGreaterThan(4 * 60);
    expect(reading.samples).toBeGreaterThan(60 * 60);
    expect(reading.kind).toBe('p95_warmup');

    const r = await call(`${api.url}/api/v1/signals?since=0&limit=500`);
    expect(r.status).toBe(200);
    expectConforms('get', '/api/v1/signals', 200, r.body);
    expect(r.body.signals.map((s: { mint: string }) => s.mint)).toEqual(signals.map((s) => s.payload.mint));
    const log = await call(`${api.url}/api/v1/composite_predictions?limit=500`);
    expectConforms('get', '/api/v1/composite_predictions', 200, log.body);
    expect(log.body.total).toBe(tiered.length);
  }, 240_000);
});
