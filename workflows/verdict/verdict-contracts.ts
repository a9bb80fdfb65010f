import type { WorkflowContract } from '../workflow-contract';
import { VERDICT_CONTRACT } from './verdict-contract';

/** The verdict area's workflow contracts (schedules and deadlines as data), for workflows/workflow-contracts.ts. */
export const VERDICT_CONTRACTS: readonly WorkflowContract[] = [VERDICT_CONTRACT];
