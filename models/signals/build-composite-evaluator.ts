import { createPriceStore } from '../../db/market/price-store';
import { createCompositePredictionStore } from '../../db/signals/composite-prediction-store';
import { createSignalStore } from '../../db/signals/signal-store';
import { createThresholdStateStore } from '../../db/signals/threshold-state-store';
import type { Config } from '../../platform/config';
import type { Db } from '../../db/db-handle';
import type { Logger } from '../../platform/logger';
import { createCompositeEvaluator } from './composite-evaluator';

/** The composite evaluator over its stores, as the live projector's worker runs it. */
export function buildCompositeEvaluator({ cfg, db, log }: { cfg: Config; db: Db; log: Logger }) {
  return createCompositeEvaluator({
    thresholdStore: createThresholdStateStore(db),
    predictionStore: createCompositePredictionStore(db),
    signalStore: createSignalStore(db),
    priceStore: createPriceStore(db),
    tierRulesVersion: cfg.signals.tierRulesVersion,
    nativePriceRefreshS: cfg.price.refreshIntervalS,
    thresholdSaveS: cfg.signals.thresholdSaveS,
    log,
  });
}
