export const MARKET_CONDITIONS_WORKFLOW = 'refreshMarketConditions';
export const MARKET_CONDITIONS_SCHEDULE_ID = 'schedule:market-conditions';
export const MARKET_CONDITIONS_WORKFLOW_ID_PREFIX = 'market-conditions';

export type ConditionsRefreshResult = { state: 'ready' | 'warming'; historyHours: number; rolledHours: number; temperature: number | null };
