import { scheduledContract } from '../workflow-contract';

export const HOLDER_RECHECK_WORKFLOW = 'recheckHolderBalances';
export const HOLDER_RECHECK_SCHEDULE_ID = 'schedule:holder-recheck';
export const HOLDER_RECHECK_WORKFLOW_ID_PREFIX = 'holder-recheck';

export type HolderRecheckResult = { checked: number; changed: number; failed: number };

export const HOLDER_RECHECK_CONTRACT = scheduledContract(HOLDER_RECHECK_WORKFLOW, HOLDER_RECHECK_SCHEDULE_ID, HOLDER_RECHECK_WORKFLOW_ID_PREFIX, {
  everyS: (cfg) => cfg.access.holder.recheckIntervalS,
  runTimeoutS: (everyS) => Math.max(600, everyS),
  deadlineS: 2 * 3600,
});
