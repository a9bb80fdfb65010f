import type { WorkflowContract } from '../workflow-contract';
import { LEDGER_ANCHOR_CONTRACT } from './ledger-anchor-contract';
import { LEDGER_HOUR_COMMIT_CONTRACT } from './ledger-commit-contract';
import { LEDGER_TICK_CONTRACT } from './ledger-tick-contract';

/** The ledger area's workflow contracts (schedules and deadlines as data), for workflows/workflow-contracts.ts. */
export const LEDGER_CONTRACTS: readonly WorkflowContract[] = [LEDGER_TICK_CONTRACT, LEDGER_HOUR_COMMIT_CONTRACT, LEDGER_ANCHOR_CONTRACT];
