import { createAccuracyActivities } from '../../activities/accuracy/accuracy-activities';
import { createKnnMintScorer } from '../../activities/mint/knn-mint-scorer';
import { createLiveProjector, LIVE_SNAPSHOT } from '../../activities/mint/live-projector';
import { createMintActivities } from '../../activities/mint/mint-activities';
import { createJupiterPriceClient } from '../../clients/jupiter-price-client';
import { createModelFitStore } from '../../db/accuracy/model-fit-store';
import { createPriceStore } from '../../db/market/price-store';
import { createCorpusStore } from '../../db/mint/corpus-store';
import { createCreatorStore } from '../../db/mint/creator-store';
import { createLiveStore } from '../../db/mint/live-store';
import { createLaunchEventStore } from '../../db/mint/launch-event-store';
import { createMintReadStore } from '../../db/mint/mint-read-store';
import { createOutcomeStore } from '../../db/mint/outcome-store';
import { createPredictionStore } from '../../db/mint/prediction-store';
import { WSOL_MINT } from '../../domain/market/native-coin';
import { GRAD_PROB_SHOWN_UNTIL_S } from '../../domain/mint/enriched-mint';
import type { CreateEvent } from '../../domain/mint/launch-events';
import { SCORE_AGES } from '../../domain/scoring/score-age';
import { createMarketSimulator } from '../../ingest/simulator/market-simulator';
import type { Knex } from '../../platform/db';
import { createLogger } from '../../platform/logger';
import { buildAccuracyDeps, buildLiveProjectorDeps } from '../../workers/activity-deps';

/**
 * The in-process wiring the benchmarks need (kept in this one file so the area-modules refactor has one place
 * to adapt): a busy simulated market written as ingestion writes it, every non-mayhem mint scored at each age
 * it has reached by the real scoring activity, one live snapshot built by the real projector, and the accuracy
 * page computed by its real activity.
 */
export async function seedScoredLiveList(db: Knex, o: { now: number; liveMaxEntries: number; seed?: number }): Promise<{ tracked: number; scored: number; predictions: number }> {
  // The list shows grad_prob until GRAD_PROB_SHOWN_UNTIL_S of age and hides about a third of launches (rug
  // flags): 10 launches/s created 30 s to 150 s ago leave more than 500 listed mints with a score.
  const launchesPerS = 10;
  const windowS = 300;
  const firstLaunchMs = o.now - (GRAD_PROB_SHOWN_UNTIL_S + 30) * 1000;
  const events = [...createMarketSimulator({ seed: o.seed ?? 5, launchesPerSecond: launchesPerS }).events(firstLaunchMs, o.now - 30_000)];
  const store = createLaunchEventStore(db);
  for (let i = 0; i < events.length; i += 5000) await store.writeBatch(events.slice(i, i + 5000));
  await createPriceStore(db).recordQuote({ symbol: 'SOL', mint: WSOL_MINT, usd: 80, source: 'jupiter-price-v3', fetchedAt: new Date(o.now) });

  const mint = createMintActivities({
    mintReadStore: createMintReadStore(db),
    predictionStore: createPredictionStore(db),
    outcomeStore: createOutcomeStore(db),
    creatorStore: createCreatorStore(db),
    mintScorer: createKnnMintScorer({
      corpusStore: createCorpusStore(db),
      modelFitStore: createModelFitStore(db),
      refitEveryS: 3600,
      corpusLimit: 20_000,
      log: createLogger('silent', 'bench'),
      now: () => o.now,
    }),
    dexPriceClient: createJupiterPriceClient('http://127.0.0.1:9/unreachable', { timeoutMs: 200 }),
    dexPriceSourceName: 'bench',
    now: () => new Date(o.now),
  });
  const creates = events.filter((e): e is CreateEvent => e.kind === 'create' && !e.mayhem);
  const due = creates.flatMap((c) => SCORE_AGES.filter((age) => c.at.getTime() + age * 1000 <= o.now).map((age) => ({ c, age })));
  let predictions = 0;
  for (let i = 0; i < due.length; i += 16) {
    await Promise.all(
      due.slice(i, i + 16).map(async ({ c, age }) => {
        await mint.scoreMint({ mint: c.mint, bucket: age, asOf: new Date(c.at.getTime() + age * 1000).toISOString() });
        predictions++;
      }),
    );
  }

  const at = () => new Date(o.now);
  const projector = createLiveProjector(buildLiveProjectorDeps(db, { liveWindowS: windowS, liveMaxEntries: o.liveMaxEntries, refreshIntervalS: 2, now: at }));
  const { tracked } = await projector.refreshLiveSnapshot();
  await createAccuracyActivities(buildAccuracyDeps(db, { windowDays: 30, now: at })).recomputeAccuracy();
  const snapshot = await createLiveStore(db).readSnapshot(LIVE_SNAPSHOT);
  const listed = snapshot ? (JSON.parse(snapshot.body) as { mints: { grad_prob: number | null }[] }).mints : [];
  return { tracked, scored: listed.filter((m) => m.grad_prob !== null).length, predictions };
}
