import { scheduledContract } from '../workflow-contract';

export const PERPS_LEADERBOARD_WORKFLOW = 'perpsLeaderboardDiscovery';
export const PERPS_LEADERBOARD_SCHEDULE_ID = 'schedule:perps-leaderboard';

export type LeaderboardDiscoveryResult = { exchange: string; rows: number; picked: number; added: number; rule: string };

/** Every PERPS_LEADERBOARD_EVERY_S: the exchange's leaderboard read and its top wallets watched (leaderboard-v1). */
export const PERPS_LEADERBOARD_CONTRACT = scheduledContract(PERPS_LEADERBOARD_WORKFLOW, PERPS_LEADERBOARD_SCHEDULE_ID, 'perps-leaderboard', {
  everyS: (cfg) => cfg.perps.leaderboard.everyS,
  runTimeoutS: 900,
  deadlineS: 2 * 3600,
});
