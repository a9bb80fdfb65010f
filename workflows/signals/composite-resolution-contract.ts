import { scheduledContract } from '../workflow-contract';

export const COMPOSITE_RESOLUTION_WORKFLOW = 'resolveCompositePredictions';
export const COMPOSITE_RESOLUTION_SCHEDULE_ID = 'schedule:composite-resolution';
export const COMPOSITE_RESOLUTION_WORKFLOW_ID_PREFIX = 'composite-resolution';

export type CompositeResolutionResult = { due: number; resolved: number; waiting: number };

/**
 * Resolves composite predictions 24 h after their cross. Durable without a timer per cross: the horizon is a
 * column (`resolves_at`), the Schedule comes back every SIGNAL_RESOLVE_EVERY_S, and a run resolves every row
 * that is due, so a worker that was down for hours catches up in its next run.
 */
export const COMPOSITE_RESOLUTION_CONTRACT = scheduledContract(
  COMPOSITE_RESOLUTION_WORKFLOW,
  COMPOSITE_RESOLUTION_SCHEDULE_ID,
  COMPOSITE_RESOLUTION_WORKFLOW_ID_PREFIX,
  {
    everyS: (cfg) => cfg.signals.resolveEveryS,
    runTimeoutS: 600,
    deadlineS: 30 * 60,
  },
);
