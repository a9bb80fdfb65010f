import { scheduledContract } from '../workflow-contract';

export const PERPS_MARKETS_WORKFLOW = 'perpsMarketsPoll';
export const PERPS_MARKETS_SCHEDULE_ID = 'schedule:perps-markets';

export type MarketsPollResult = { exchange: string; markets: number; at: string };

/** Every PERPS_MARKETS_INTERVAL_S: the live exchange's markets and asset contexts, and a mark-price sample. */
export const PERPS_MARKETS_CONTRACT = scheduledContract(PERPS_MARKETS_WORKFLOW, PERPS_MARKETS_SCHEDULE_ID, 'perps-markets', {
  everyS: (cfg) => cfg.perps.marketsIntervalS,
  runTimeoutS: (s) => Math.max(120, 4 * s),
  deadlineS: 15 * 60,
});
