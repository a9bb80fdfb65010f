import { createLiveTick } from '../../activities';
import { createLaunchEventStore } from '../../db/mint/launch-event-store';
import { createPredictionStore } from '../../db/mint/prediction-store';
import { createPriceStore } from '../../db/market/price-store';
import { seedSimulatedSmartWallets } from '../../db/wallets/simulated-wallet-seed';
import type { CreateEvent, LaunchEvent, TradeEvent } from '../../domain/launch/launch-events';
import { LABEL_VERSION } from '../../domain/launch/outcome-labels';
import { createMarketSimulator } from '../../ingest/simulator/market-simulator';
import { hashSeed } from '../../ingest/simulator/seeded-random';
import { simulatedSmartWallets } from '../../ingest/simulator/simulated-smart-wallets';
import { areaContext } from './area-context';
import type { KnexDb } from '../../db/knex-handle';

/** Scores the lifecycle would log, spread deterministically per mint so every probability kind has fires and misses. */
export const simulatedScore = (seed: number, mint: string) => {
  const h = hashSeed(seed, mint);
  return { gradProb: [0.8, 0.5, 0.2, 0.05][h % 4]!, runner5x: [0.4, 0.2, 0.05][h % 3]!, runner10x: [0.15, 0.05][h % 2]! };
};

/**
 * A simulated market run as `npm start` runs it, for alert tests: launches and trades ingested as the clock moves,
 * the simulator's smart wallets in the wallet index, a SOL price, a creator with a proven 5x record, scores logged at
 * 30 s and 60 s as the lifecycle logs them, and the live projector's refresh (live area, which evaluates the alert
 * rules) every 2 s. `onStep` runs before each refresh; `restartAt` starts a fresh process (empty memory) at that step.
 */
export function alertMarket(db: KnexDb, o: { seed: number; start: number; minutes: number; env?: Record<string, string> }) {
  const events: LaunchEvent[] = [
    ...createMarketSimulator({ seed: o.seed, launchesPerSecond: 0.5, graduationShare: 0.05 }).events(o.start, o.start + o.minutes * 60_000),
  ];
  const creates = events.filter((e): e is CreateEvent => e.kind === 'create');
  const buys = events.filter((e): e is TradeEvent => e.kind === 'trade' && e.isBuy);
  let clock = o.start;
  const newProcess = () => createLiveTick(areaContext(db, { env: { LIVE_REFRESH_MS: '2000', ...o.env }, now: () => new Date(clock) }));

  return {
    events,
    creates,
    buys,
    now: () => clock,
    /** Seeds what exists before the run: smart wallets, a SOL price, and `runnerCreator`'s record (2 of 4 launches ran 5x). */
    async seed(runnerCreator: string) {
      await seedSimulatedSmartWallets(db, simulatedSmartWallets(o.seed), new Date(o.start));
      await createPriceStore(db).recordQuote({
        symbol: 'SOL',
        mint: 'So11111111111111111111111111111111111111112',
        usd: 150,
        source: 'test',
        fetchedAt: new Date(o.start),
      });
      await db('creators').insert({
        creator: runnerCreator,
        n_launches: 4,
        n_resolved: 4,
        n_graduated: 2,
        n_5x: 2,
        n_rugged: 0,
        label_version: LABEL_VERSION,
        updated_at: new Date(o.start),
      });
    },
    async run(until: number, hooks: { restartAtStep?: number; onStep?: (step: number) => Promise<void> } = {}) {
      const store = createLaunchEventStore(db);
      const predictions = createPredictionStore(db);
      const scored = new Set<string>();
      let next = events.findIndex((e) => e.at.getTime() > clock);
      if (next < 0) next = events.length;
      let p = newProcess();
      for (let step = 0; clock < until; step++) {
        clock += 2_000;
        const due: LaunchEvent[] = [];
        while (next < events.length && events[next]!.at.getTime() <= clock) due.push(events[next++]!);
        if (due.length) await store.writeBatch(due);
        for (const c of creates) {
          if (c.mayhem || c.at.getTime() > clock) continue;
          for (const bucket of [30, 60]) {
            const key = `${c.mint}:${bucket}`;
            if (scored.has(key) || clock - c.at.getTime() < bucket * 1000 || clock - c.at.getTime() > bucket * 1000 + 10_000) continue;
            scored.add(key);
            const s = simulatedScore(o.seed, c.mint);
            const gp = bucket === 30 ? s.gradProb / 2 : s.gradProb;
            await predictions.insertOnce({
              mint: c.mint,
              ageBucket: bucket,
              asOf: new Date(c.at.getTime() + bucket * 1000),
              predictedAt: new Date(clock),
              gradProb: gp,
              rawProb: gp,
              modelVersion: 'test',
              features: {},
              calibration: { age_bucket: bucket, confidence_band: { lo: 0.5, hi: 0.7 }, n: 120, historical_actual_rate: 0.55, model_version: 'test' },
              priceSol: 3e-8,
              rugProb: 0.1,
              runnerOdds: { '2x': 0.6, '3x': 0.5, '5x': s.runner5x, '10x': s.runner10x, '20x': 0.01 },
              survivalProb: null,
              modelVersions: {},
              rugFeatures: {},
              context: {},
            });
          }
        }
        await hooks.onStep?.(step);
        if (step === hooks.restartAtStep) p = newProcess();
        await p.refreshLiveSnapshot();
      }
    },
  };
}
