import { scheduledContract } from '../workflow-contract';

/** Contract of the base-rates projection: what non-workflow code imports of it at runtime. */
export const BASE_RATES_WORKFLOW = 'projectBaseRates';
export const BASE_RATES_SCHEDULE_ID = 'schedule:base-rates';
/** Temporal appends the scheduled time: `base-rates-<time>`. */
export const BASE_RATES_WORKFLOW_ID_PREFIX = 'base-rates';

export type BaseRatesResult = { launches: number; computedAt: string };

export const BASE_RATES_CONTRACT = scheduledContract(BASE_RATES_WORKFLOW, BASE_RATES_SCHEDULE_ID, BASE_RATES_WORKFLOW_ID_PREFIX, {
  everyS: (cfg) => cfg.accuracy.baseRatesRefreshS,
  runTimeoutS: 600,
  deadlineS: 15 * 60,
});
