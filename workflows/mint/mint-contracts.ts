import { MINT_LIFECYCLE_CONTRACT } from './mint-lifecycle-contract';
import type { WorkflowContract } from '../workflow-contract';

/** The mint area's workflow contracts (schedules and deadlines as data), for workflows/workflow-contracts.ts. */
export const MINT_CONTRACTS: readonly WorkflowContract[] = [MINT_LIFECYCLE_CONTRACT];
