import { createJupiterPriceClient } from '../../clients/jupiter-price-client';
import { createModelFitStore } from '../../db/accuracy/model-fit-store';
import { createShadowStore } from '../../db/accuracy/shadow-store';
import { createCorpusStore } from '../../db/mint/corpus-store';
import { createIncrementalLiveModel } from '../../db/mint/incremental-live-model';
import { createLiveReadModel } from '../../db/mint/live-read-model';
import { createLiveStore } from '../../db/mint/live-store';
import { createMintReadStore } from '../../db/mint/mint-read-store';
import { createOutcomeStore } from '../../db/mint/outcome-store';
import { createPredictionStore } from '../../db/mint/prediction-store';
import { createScoreSkipStore } from '../../db/mint/score-skip-store';
import { SCORE_AGES } from '../../domain/scoring/score-age';
import { createKnnMintScorer } from '../../models/mint/knn-mint-scorer';
import { buildCompositeEvaluator } from '../../models/signals/build-composite-evaluator';
import { ensureLiveProjector } from '../../workflows/mint/live-projector-starter';
import { buildAlertEvaluator } from '../alerts/build-alert-evaluator';
import { defineActivityArea, type WorkerContext } from '../activity-area';
import { createLiveProjector } from './live-projector';
import { createMintActivities } from './mint-activities';

export const mintActivities = defineActivityArea({
  name: 'mint',
  deps: ({ cfg, db, log, now }: Pick<WorkerContext, 'cfg' | 'db' | 'log' | 'now'>) => ({
    indexedCurves: async () => (await createCorpusStore(db).summary()).resolvedMints,
    mintReadStore: createMintReadStore(db),
    predictionStore: createPredictionStore(db),
    scoreSkipStore: createScoreSkipStore(db),
    shadowStore: createShadowStore(db),
    outcomeStore: createOutcomeStore(db),
    readModel: createLiveReadModel(db, { smartMoney: { ttlMs: cfg.wallets.readCacheMs, criteria: cfg.wallets.smart } }),
    mintScorer: createKnnMintScorer({
      corpusStore: createCorpusStore(db),
      modelFitStore: createModelFitStore(db),
      refitEveryS: cfg.mint.modelRefitEveryS,
      corpusLimit: cfg.mint.corpusLimit,
      minServingCorpus: cfg.mint.minServingCorpus,
      gradVersions: {
        configured: [cfg.mint.champion, ...cfg.mint.challengers],
        currentChampion: () => createShadowStore(db).currentChampion(cfg.mint.champion),
      },
      log,
      now: () => now().getTime(),
    }),
    dexPriceClient: createJupiterPriceClient(cfg.price.sourceUrl),
    dexPriceSourceName: 'jupiter-price-v3',
    liveModel: createIncrementalLiveModel(db, { windowS: cfg.mint.liveWindowS }),
    liveStore: createLiveStore(db),
    liveMaxEntries: cfg.mint.liveMaxEntries,
    refreshIntervalS: Math.max(1, Math.round(cfg.mint.liveRefreshMs / 1000)),
    smartCriteria: cfg.wallets.smart,
    compositeEvaluator: buildCompositeEvaluator({ cfg, db, log }),
    alertEvaluator: buildAlertEvaluator({ cfg, db }),
    now,
  }),
  activities: (d) => ({ ...createMintActivities(d), ...createLiveProjector(d) }),
  start: async (d, { cfg, temporal }) => {
    await ensureLiveProjector(temporal, cfg.temporal.taskQueue, cfg.mint.liveRefreshMs);
    // Each worker refits its own in-memory models on a timer: a Temporal Schedule would reach only one worker.
    return d.mintScorer.startRefitLoop(SCORE_AGES);
  },
});
