export const HOLDER_RECHECK_WORKFLOW = 'recheckHolderBalances';
export const HOLDER_RECHECK_SCHEDULE_ID = 'schedule:holder-recheck';
export const HOLDER_RECHECK_WORKFLOW_ID_PREFIX = 'holder-recheck';

export type HolderRecheckResult = { checked: number; changed: number; failed: number };
