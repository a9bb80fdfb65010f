import { createMintReadStore } from '../../db/mint/mint-read-store';
import { createOutcomeStore } from '../../db/mint/outcome-store';
import { createCompositePredictionStore } from '../../db/signals/composite-prediction-store';
import { defineActivityArea, type WorkerContext } from '../activity-area';
import { createCompositeResolutionActivities } from './composite-resolution-activities';

/**
 * The signals area's activities. The composite evaluator itself runs inside the live projector's refresh (mint
 * area), over the states it already holds: see models/signals/composite-evaluator.ts.
 */
export const signalsActivities = defineActivityArea({
  name: 'signals',
  deps: ({ db, now }: Pick<WorkerContext, 'db' | 'now'>) => ({
    compositePredictionStore: createCompositePredictionStore(db),
    mintReadStore: createMintReadStore(db),
    outcomeStore: createOutcomeStore(db),
    now,
  }),
  activities: (d) => createCompositeResolutionActivities(d),
});
