import type { WorkflowContract } from '../workflow-contract';

export const HOLDER_RECHECK_WORKFLOW = 'recheckHolderBalances';
export const HOLDER_RECHECK_SCHEDULE_ID = 'schedule:holder-recheck';
export const HOLDER_RECHECK_WORKFLOW_ID_PREFIX = 'holder-recheck';

export type HolderRecheckResult = { checked: number; changed: number; failed: number };

export const HOLDER_RECHECK_CONTRACT: WorkflowContract = {
  workflowType: HOLDER_RECHECK_WORKFLOW,
  schedule: {
    scheduleId: HOLDER_RECHECK_SCHEDULE_ID,
    workflowIdPrefix: HOLDER_RECHECK_WORKFLOW_ID_PREFIX,
    everyS: (cfg) => cfg.access.holder.recheckIntervalS,
    runTimeoutS: (everyS) => Math.max(600, everyS),
  },
  deadlineS: 2 * 3600,
};
