import type { Client } from '@temporalio/client';
import type { ActivityDeps } from '../activities';
import type { AccuracyDeps } from '../activities/accuracy/accuracy-activities';
import type { LiveProjectorDeps } from '../activities/mint/live-projector';
import { createKnnMintScorer } from '../activities/mint/knn-mint-scorer';
import type { PriceClient } from '../clients/jupiter-price-client';
import { createPriceStore } from '../db/market/price-store';
import { createAccuracyStore } from '../db/accuracy/accuracy-store';
import { createGateStore } from '../db/accuracy/gate-store';
import { createModelFitStore } from '../db/accuracy/model-fit-store';
import { createCorpusStore } from '../db/mint/corpus-store';
import { createCreatorStore } from '../db/mint/creator-store';
import { createLiveStore } from '../db/mint/live-store';
import { createMintReadStore } from '../db/mint/mint-read-store';
import { createOutcomeStore } from '../db/mint/outcome-store';
import { createPredictionStore } from '../db/mint/prediction-store';
import { createHeartbeatStore } from '../db/ops/heartbeat-store';
import { createWatchdogStore } from '../db/ops/watchdog-store';
import type { Config } from '../platform/config';
import type { Knex } from '../platform/db';
import type { Logger } from '../platform/logger';
import { WORKFLOW_DEADLINES_S } from './workflow-deadlines';

/** Every activity dependency over one database; the worker's composition root and the tests share it. */
export function buildActivityDeps(db: Knex, o: { cfg: Config; temporal: Client; priceClient: PriceClient; log: Logger; now?: () => Date }): ActivityDeps {
  const now = o.now ?? (() => new Date());
  return {
    watchdogStore: createWatchdogStore(db),
    heartbeatStore: createHeartbeatStore(db),
    temporal: o.temporal,
    diskPath: o.cfg.watchdog.diskPath,
    workflowDeadlinesS: WORKFLOW_DEADLINES_S,
    heartbeatIntervalS: o.cfg.heartbeatIntervalS,
    watchdogIntervalS: o.cfg.watchdog.intervalS,
    expectedDaemons: o.cfg.expectedDaemons,
    priceClient: o.priceClient,
    sourceName: 'jupiter-price-v3',
    ...buildLiveProjectorDeps(db, {
      liveWindowS: o.cfg.mint.liveWindowS,
      liveMaxEntries: o.cfg.mint.liveMaxEntries,
      refreshIntervalS: Math.max(1, Math.round(o.cfg.mint.liveRefreshMs / 1000)),
      now,
    }),
    predictionStore: createPredictionStore(db),
    outcomeStore: createOutcomeStore(db),
    mintScorer: createKnnMintScorer({
      corpusStore: createCorpusStore(db),
      modelFitStore: createModelFitStore(db),
      refitEveryS: o.cfg.mint.modelRefitEveryS,
      corpusLimit: o.cfg.mint.corpusLimit,
      log: o.log,
      now: () => now().getTime(),
    }),
    dexPriceClient: o.priceClient,
    dexPriceSourceName: 'jupiter-price-v3',
    ...buildAccuracyDeps(db, { windowDays: o.cfg.accuracy.windowDays, now }),
    accuracyWindowDays: o.cfg.accuracy.windowDays,
    now,
  };
}

/** The live projector's dependencies (the worker's, and the fuzz seed's and tests' projectors). */
export function buildLiveProjectorDeps(db: Knex, o: { liveWindowS: number; liveMaxEntries: number; refreshIntervalS: number; now: () => Date }): LiveProjectorDeps {
  return {
    liveStore: createLiveStore(db),
    mintReadStore: createMintReadStore(db),
    creatorStore: createCreatorStore(db),
    gateStore: createGateStore(db),
    priceStore: createPriceStore(db),
    ...o,
  };
}

export function buildAccuracyDeps(db: Knex, o: { windowDays: number; now: () => Date }): AccuracyDeps {
  return { db, accuracyStore: createAccuracyStore(db), gateStore: createGateStore(db), accuracyWindowDays: o.windowDays, now: o.now };
}
