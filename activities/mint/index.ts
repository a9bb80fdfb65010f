import { createJupiterPriceClient } from '../../clients/jupiter-price-client';
import { createModelFitStore } from '../../db/scoring/model-fit-store';
import { createCorpusStore } from '../../db/mint/corpus-store';
import { createMintReadStore } from '../../db/mint/mint-read-store';
import { createMintStates } from '../../db/mint/mint-states';
import { createOutcomeStore } from '../../db/mint/outcome-store';
import { createPredictionStore } from '../../db/mint/prediction-store';
import { createRunnerNowStore } from '../../db/mint/runner-now-store';
import { createScoreSkipStore } from '../../db/mint/score-skip-store';
import { createShadowScoreStore } from '../../db/mint/shadow-score-store';
import { SCORE_AGES } from '../../domain/scoring/score-age';
import { createKnnMintScorer } from '../../models/mint/knn-mint-scorer';
import { defineActivityArea, type WorkerContext } from '../activity-area';
import { createMintActivities } from './mint-activities';

export const mintActivities = defineActivityArea({
  name: 'mint',
  deps: ({ cfg, db, log, now, readPorts }: Pick<WorkerContext, 'cfg' | 'db' | 'log' | 'now' | 'readPorts'>) => ({
    mintReadStore: createMintReadStore(db),
    predictionStore: createPredictionStore(db),
    scoreSkipStore: createScoreSkipStore(db),
    shadowStore: createShadowScoreStore(db),
    outcomeStore: createOutcomeStore(db),
    mintStates: createMintStates(db, { smartMoney: readPorts.smartMoney() }),
    runnerNowStore: createRunnerNowStore(db),
    mintScorer: createKnnMintScorer({
      corpusStore: createCorpusStore(db),
      modelFitStore: createModelFitStore(db),
      refitEveryS: cfg.mint.modelRefitEveryS,
      corpusLimit: cfg.mint.corpusLimit,
      minServingCorpus: cfg.mint.minServingCorpus,
      gradVersions: {
        configured: [cfg.mint.champion, ...cfg.mint.challengers],
        currentChampion: () => createShadowScoreStore(db).currentChampion(cfg.mint.champion),
      },
      log,
      now: () => now().getTime(),
    }),
    dexPriceClient: createJupiterPriceClient(cfg.price.sourceUrl),
    dexPriceSourceName: 'jupiter-price-v3',
    now,
  }),
  activities: (d) => createMintActivities(d),
  // Each worker refits its own in-memory models on a timer: a Temporal Schedule would reach only one worker.
  start: async (d) => d.mintScorer.startRefitLoop(SCORE_AGES),
});
