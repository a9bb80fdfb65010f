import type { WorkflowContract } from '../workflow-contract';

export const LIVE_PROJECTOR_WORKFLOW = 'liveProjector';
/** One projector for the whole deployment: the workflow id is the lock. */
export const LIVE_PROJECTOR_WORKFLOW_ID = 'live-projector';
export type LiveProjectorInput = { intervalMs: number; iterationsPerRun: number };

/** Started by every worker (live-projector-starter.ts); runs for good, so no deadline. */
export const LIVE_PROJECTOR_CONTRACT: WorkflowContract = { workflowType: LIVE_PROJECTOR_WORKFLOW };
