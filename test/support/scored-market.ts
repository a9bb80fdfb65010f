import { createLiveTick } from '../../activities';
import { mintActivities } from '../../activities/mint';
import { confidenceBand } from '../../domain/scoring/confidence-band';
import { createModelFitStore } from '../../db/scoring/model-fit-store';
import { createPriceStore } from '../../db/market/price-store';
import { createCorpusStore } from '../../db/mint/corpus-store';
import { createLaunchEventStore } from '../../db/mint/launch-event-store';
import { createOutcomeStore } from '../../db/mint/outcome-store';
import { createPredictionStore } from '../../db/mint/prediction-store';
import { WSOL_MINT } from '../../domain/market/native-coin';
import type { CreateEvent, LaunchEvent } from '../../domain/launch/launch-events';
import { LABEL_VERSION, RUG_LABEL_VERSION } from '../../domain/launch/outcome-labels';
import { mintAddress, signature } from '../../ingest/simulator/address-book';
import { createMarketSimulator } from '../../ingest/simulator/market-simulator';
import { SeededRandom } from '../../ingest/simulator/seeded-random';
import { createKnnMintScorer } from '../../models/mint/knn-mint-scorer';
import { createLogger } from '../../platform/logger';
import { areaContext } from './area-context';
import { inChunks } from './in-chunks';
import type { KnexDb } from '../../db/knex-handle';

const MIN = 60_000;
const DAY = 86_400_000;

/**
 * A simulated market whose live mints carry every model's output, built as production builds it: `minutes` of
 * simulated launches and trades written as ingestion writes them, a cached SOL price, the real scoring and
 * resolution activities over the older mints (resolved at a 10-minute horizon, so their outcomes exist), the real
 * scorer refitted on them, the live mints scored at 30 s and 60 s, and one live snapshot by the real projector.
 */
export async function seedScoredMarket(db: KnexDb, now: Date, o: { seed?: number; minutes?: number; launchesPerSecond?: number } = {}) {
  const sim = createMarketSimulator({ seed: o.seed ?? 17, launchesPerSecond: o.launchesPerSecond ?? 0.5, graduationShare: 0.08 });
  const events: LaunchEvent[] = [...sim.events(now.getTime() - (o.minutes ?? 30) * MIN, now.getTime())];
  const store = createLaunchEventStore(db);
  for (let i = 0; i < events.length; i += 5000) await store.writeBatch(events.slice(i, i + 5000));
  await createPriceStore(db).recordQuote({ symbol: 'SOL', mint: WSOL_MINT, usd: 80, source: 'jupiter-price-v3', fetchedAt: now });

  const scorer = createKnnMintScorer({
    corpusStore: createCorpusStore(db),
    modelFitStore: createModelFitStore(db),
    refitEveryS: 3600,
    corpusLimit: 100_000,
    log: createLogger('silent', 'test'),
    now: () => Date.now(),
  });
  const acts = mintActivities.create(areaContext(db), { mintScorer: scorer, dexPriceSourceName: 'test' });
  const creates = events.filter((e): e is CreateEvent => e.kind === 'create' && !e.mayhem);
  const score = (c: CreateEvent, bucket: number) => acts.scoreMint({ mint: c.mint, bucket, asOf: new Date(c.at.getTime() + bucket * 1000).toISOString() });

  // History: mints older than 15 minutes, scored at 30 s and 60 s, resolved at a 10-minute horizon.
  const history = creates.filter((c) => c.at.getTime() < now.getTime() - 15 * MIN);
  await inChunks(history, 8, async (c) => {
    await score(c, 30);
    await score(c, 60);
    await acts.resolveMint({ mint: c.mint, horizonAt: new Date(c.at.getTime() + 10 * MIN).toISOString() });
  });
  await scorer.refit(30);
  await scorer.refit(60);

  // Live: mints young enough to be shown with their score.
  const live = creates.filter((c) => c.at.getTime() >= now.getTime() - 110_000 && c.at.getTime() <= now.getTime() - 30_000);
  await inChunks(live, 8, async (c) => {
    await score(c, 30);
    if (c.at.getTime() + 60_000 <= now.getTime()) await score(c, 60);
  });
  await createLiveTick(areaContext(db, { now: () => now })).refreshLiveSnapshot();
  return { events, history, live };
}

/**
 * `n` mints resolved days before `now`, each predicted at 30 s and 60 s with probabilities that carry a noisy signal
 * (graduates score higher), written through the real stores as the lifecycle writes them: what the accuracy
 * recompute needs to draw a reliability diagram with cells across the whole range. Addresses are real base58 keys.
 */
export async function seedResolvedPredictions(db: KnexDb, now: Date, n: number, seed = 21): Promise<{ mints: string[] }> {
  const rng = new SeededRandom(seed);
  const events = createLaunchEventStore(db);
  const predictions = createPredictionStore(db);
  const outcomes = createOutcomeStore(db);
  const mints: string[] = [];
  for (let i = 0; i < n; i++) {
    const createdAt = new Date(now.getTime() - (2 + (10 * i) / n) * DAY);
    const mint = mintAddress(rng);
    const creator = mintAddress(rng);
    mints.push(mint);
    await events.writeBatch([
      {
        kind: 'create',
        signature: signature(rng),
        ordinal: 0,
        slot: 1000 + i,
        at: createdAt,
        source: 'test',
        mint,
        name: `Resolved ${i}`,
        symbol: `R${i}`,
        uri: '',
        bondingCurve: mintAddress(rng),
        creator,
        mayhem: false,
        vSolLamports: 30e9,
        vTokensRaw: 1_073e12,
      },
    ]);
    const graduated = rng.chance(0.15);
    const peak = graduated ? rng.uniform(3, 40) : rng.uniform(1, 3);
    const ids: { predictionId: number; peakMult24h: number }[] = [];
    for (const age of [30, 60]) {
      const signal = graduated ? rng.uniform(0.3, 1) : rng.uniform(0, 0.7);
      const gradProb = Math.min(0.99, Math.max(0.001, signal * signal));
      const asOf = new Date(createdAt.getTime() + age * 1000);
      const version = `knn-v1@${age}:${n}:seeded`;
      const r = await predictions.insertOnce({
        mint,
        ageBucket: age,
        asOf,
        predictedAt: new Date(asOf.getTime() + 150),
        gradProb,
        rawProb: gradProb,
        modelVersion: version,
        features: { vSolSol: 30 + 20 * signal, vSolGrowthSol: 20 * signal, logTrades: 2, logUniqueBuyers: 2, topBuyerShare: 0.3, currentMult: 1 + signal },
        // The calibration record the scorer logs with every score (the ledger builds its leaves from it).
        calibration: { age_bucket: age, confidence_band: confidenceBand(gradProb), n: 0, historical_actual_rate: null, model_version: version },
        priceSol: 3e-8,
        rugProb: Math.min(0.99, rng.uniform(0.05, 0.4)),
        runnerOdds: Object.fromEntries([2, 3, 5, 10, 20].map((x) => [`${x}x`, Math.min(0.99, gradProb / x + 0.01)])),
        survivalProb: null,
        modelVersions: {
          grad_prob: version,
          rug_prob: `rug-knn-v1@${age}:seeded`,
          runner_prob: `runner-knn-v1@${age}:seeded`,
          post_grad_survival: `survival-knn-v1@${age}:seeded`,
        },
        rugFeatures: {},
        context: {},
      });
      ids.push({ predictionId: r.id, peakMult24h: age === 30 ? peak : peak * rng.uniform(0.5, 1) });
    }
    await outcomes.recordOutcome(
      mint,
      creator,
      {
        labelVersion: LABEL_VERSION,
        graduated,
        timeToGraduationS: graduated ? 600 : null,
        peakPriceSol: 3e-8 * peak,
        finalPriceSol: 3e-8,
        peakMultFromLaunch: peak,
        rugged: !graduated && rng.chance(0.2),
        sustained30m: null,
        rugLabelVersion: RUG_LABEL_VERSION,
      },
      ids,
      new Date(createdAt.getTime() + DAY),
    );
  }
  return { mints };
}
