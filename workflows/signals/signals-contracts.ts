import { COMPOSITE_RESOLUTION_CONTRACT } from './composite-resolution-contract';
import type { WorkflowContract } from '../workflow-contract';

/** The signals area's workflow contracts (schedules and deadlines as data), for workflows/workflow-contracts.ts. */
export const SIGNALS_CONTRACTS: readonly WorkflowContract[] = [COMPOSITE_RESOLUTION_CONTRACT];
