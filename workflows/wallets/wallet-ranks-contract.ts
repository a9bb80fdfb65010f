import { scheduledContract } from '../workflow-contract';

/** Contract of the rank snapshot refresh: a Temporal Schedule runs it every WALLETS_RANK_REFRESH_S. */
export const WALLET_RANKS_WORKFLOW = 'refreshWalletRanks';
export const WALLET_RANKS_SCHEDULE_ID = 'schedule:wallet-ranks';
/** Temporal appends the scheduled time: `wallet-ranks-<time>`. */
export const WALLET_RANKS_WORKFLOW_ID_PREFIX = 'wallet-ranks';

export type WalletRanksResult = { scoreVersion: string; ranked: number; groups: number };

export const WALLET_RANKS_CONTRACT = scheduledContract(WALLET_RANKS_WORKFLOW, WALLET_RANKS_SCHEDULE_ID, WALLET_RANKS_WORKFLOW_ID_PREFIX, {
  everyS: (cfg) => cfg.wallets.rankRefreshS,
  runTimeoutS: (everyS) => Math.max(120, everyS),
  deadlineS: 30 * 60,
});
