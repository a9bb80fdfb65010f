import { WATCHDOG_CONTRACT } from './watchdog-contract';
import type { WorkflowContract } from '../workflow-contract';

/** The ops area's workflow contracts (schedules and deadlines as data), for workflows/workflow-contracts.ts. */
export const OPS_CONTRACTS: readonly WorkflowContract[] = [WATCHDOG_CONTRACT];
