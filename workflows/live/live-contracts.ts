import { LIVE_PROJECTOR_CONTRACT } from './live-projector-contract';
import type { WorkflowContract } from '../workflow-contract';

/** The live area's workflow contracts (schedules and deadlines as data), for workflows/workflow-contracts.ts. */
export const LIVE_CONTRACTS: readonly WorkflowContract[] = [LIVE_PROJECTOR_CONTRACT];
