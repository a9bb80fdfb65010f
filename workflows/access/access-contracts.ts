import { WALLET_SIGNUP_CONTRACT } from './wallet-signup-contract';
import { HOLDER_RECHECK_CONTRACT } from './holder-recheck-contract';
import type { WorkflowContract } from '../workflow-contract';

/** The access area's workflow contracts (schedules and deadlines as data), for workflows/workflow-contracts.ts. */
export const ACCESS_CONTRACTS: readonly WorkflowContract[] = [WALLET_SIGNUP_CONTRACT, HOLDER_RECHECK_CONTRACT];
