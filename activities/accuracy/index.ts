import { createAccuracyStore } from '../../db/accuracy/accuracy-store';
import { createGateStore } from '../../db/accuracy/gate-store';
import { createGateValidationStore } from '../../db/accuracy/gate-validation-store';
import { createRunnerNowStore } from '../../db/mint/runner-now-store';
import { defineActivityArea, type WorkerContext } from '../activity-area';
import { createAccuracyActivities } from './accuracy-activities';
import { createGateValidationActivities } from './gate-validation-activities';

export const accuracyActivities = defineActivityArea({
  name: 'accuracy',
  deps: ({ cfg, db, now }: Pick<WorkerContext, 'cfg' | 'db' | 'now'>) => ({
    accuracyStore: createAccuracyStore(db),
    gateStore: createGateStore(db),
    gateValidationStore: createGateValidationStore(db),
    runnerNowStore: createRunnerNowStore(db),
    accuracyWindowDays: cfg.accuracy.windowDays,
    now,
  }),
  activities: (d) => ({ ...createAccuracyActivities(d), ...createGateValidationActivities(d) }),
});
