import { createAccuracyStore } from '../../db/accuracy/accuracy-store';
import { createBaseRateStore } from '../../db/accuracy/base-rate-store';
import { createGateStore } from '../../db/accuracy/gate-store';
import { createGateValidationStore } from '../../db/accuracy/gate-validation-store';
import { createModelFitStore } from '../../db/scoring/model-fit-store';
import { createBackfillOnStartStore } from '../../db/history/backfill-on-start-store';
import { createCorpusStore } from '../../db/mint/corpus-store';
import { defineApiArea } from '../api-area';
import { accuracyRoutes } from './accuracy-routes';
import { baseRatesRoutes } from './base-rates-routes';
import { gateValidationRoutes } from './gate-validation-routes';

export const accuracyApi = defineApiArea({
  name: 'accuracy',
  deps: ({ cfg, db, now, publicReads }) => ({
    accuracyStore: createAccuracyStore(db),
    modelFitStore: createModelFitStore(db),
    gateStore: createGateStore(db),
    gateValidationStore: createGateValidationStore(db),
    corpusSummary: () => createCorpusStore(db).summary(),
    backfillOnStart: () => createBackfillOnStartStore(db).status(),
    /** The worker's model refit period (calibration freshness is judged against it). */
    modelRefitEveryS: cfg.mint.modelRefitEveryS,
    accuracyRefreshS: cfg.accuracy.refreshIntervalS,
    baseRateStore: createBaseRateStore(db),
    baseRatesRefreshS: cfg.accuracy.baseRatesRefreshS,
    now,
    readCacheTtlMs: cfg.api.readCacheTtlMs,
    publicReads,
  }),
  parts: (d) => ({ routes: [accuracyRoutes(d), gateValidationRoutes(d), baseRatesRoutes(d)] }),
});
