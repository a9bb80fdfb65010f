import type { WorkflowContract } from '../workflow-contract';
import { WALLET_RANKS_CONTRACT } from './wallet-ranks-contract';
import { WALLET_REBUILD_CONTRACT } from './wallet-rebuild-contract';

/** The wallets area's workflow contracts (schedules and deadlines as data), for workflows/workflow-contracts.ts. */
export const WALLETS_CONTRACTS: readonly WorkflowContract[] = [WALLET_REBUILD_CONTRACT, WALLET_RANKS_CONTRACT];
