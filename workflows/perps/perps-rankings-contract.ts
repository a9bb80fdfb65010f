import { scheduledContract } from '../workflow-contract';

export const PERPS_RANKINGS_WORKFLOW = 'perpsRankings';
export const PERPS_RANKINGS_SCHEDULE_ID = 'schedule:perps-rankings';

export type RankingsResult = { exchange: string; date: string; ranked: number; scored: number };

/** Hourly: today's rank of every watched wallet by smart score (the wallet page's ranking history). */
export const PERPS_RANKINGS_CONTRACT = scheduledContract(PERPS_RANKINGS_WORKFLOW, PERPS_RANKINGS_SCHEDULE_ID, 'perps-rankings', {
  everyS: () => 3600,
  runTimeoutS: 600,
  deadlineS: 30 * 60,
});
