import { createMintReadStore } from '../../db/mint/mint-read-store';
import { createOutcomeStore } from '../../db/mint/outcome-store';
import { createCompositePredictionStore } from '../../db/signals/composite-prediction-store';
import { buildCompositeEvaluator } from '../../models/signals/build-composite-evaluator';
import { defineActivityArea, type WorkerContext } from '../activity-area';
import { compositeLiveConsumer } from './composite-live-consumer';
import { createCompositeResolutionActivities } from './composite-resolution-activities';

/**
 * The signals area's activities, and the composite evaluator it registers on the live tick: it runs inside the live
 * projector's refresh and wakes, over the states the projector already holds (composite-live-consumer.ts).
 */
export const signalsActivities = defineActivityArea({
  name: 'signals',
  deps: ({ cfg, db, log, now, liveConsumers }: Pick<WorkerContext, 'cfg' | 'db' | 'log' | 'now' | 'liveConsumers'>) => ({
    compositePredictionStore: createCompositePredictionStore(db),
    mintReadStore: createMintReadStore(db),
    outcomeStore: createOutcomeStore(db),
    compositeEvaluator: buildCompositeEvaluator({ cfg, db, log }),
    liveConsumers,
    now,
  }),
  activities: (d) => {
    d.liveConsumers.register('signals', compositeLiveConsumer(d.compositeEvaluator));
    return createCompositeResolutionActivities(d);
  },
});
