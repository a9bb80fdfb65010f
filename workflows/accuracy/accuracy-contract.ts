import { scheduledContract } from '../workflow-contract';

/** Contract of the accuracy recompute: the only accuracy workflow module non-workflow code imports at runtime. */
export const ACCURACY_WORKFLOW = 'recomputeAccuracy';
export const ACCURACY_SCHEDULE_ID = 'schedule:accuracy';
/** Temporal appends the scheduled time: `accuracy-<time>`. */
export const ACCURACY_WORKFLOW_ID_PREFIX = 'accuracy';

export type AccuracyResult = { predictions: number; survivalGate: string; computedAt: string };

export const ACCURACY_CONTRACT = scheduledContract(ACCURACY_WORKFLOW, ACCURACY_SCHEDULE_ID, ACCURACY_WORKFLOW_ID_PREFIX, {
  everyS: (cfg) => cfg.accuracy.refreshIntervalS,
  runTimeoutS: 600,
  deadlineS: 15 * 60,
});
