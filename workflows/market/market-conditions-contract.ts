import { scheduledContract } from '../workflow-contract';

export const MARKET_CONDITIONS_WORKFLOW = 'refreshMarketConditions';
export const MARKET_CONDITIONS_SCHEDULE_ID = 'schedule:market-conditions';
export const MARKET_CONDITIONS_WORKFLOW_ID_PREFIX = 'market-conditions';

export type ConditionsRefreshResult = { state: 'ready' | 'warming'; historyHours: number; rolledHours: number; temperature: number | null };

export const MARKET_CONDITIONS_CONTRACT = scheduledContract(MARKET_CONDITIONS_WORKFLOW, MARKET_CONDITIONS_SCHEDULE_ID, MARKET_CONDITIONS_WORKFLOW_ID_PREFIX, {
  everyS: (cfg) => cfg.conditions.refreshS,
  runTimeoutS: 1800,
  deadlineS: 30 * 60,
});
