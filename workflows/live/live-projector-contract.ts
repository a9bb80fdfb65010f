import { defineSignal } from '@temporalio/workflow';
import type { WorkflowContract } from '../workflow-contract';

export const LIVE_PROJECTOR_WORKFLOW = 'liveProjector';
/** One projector for the whole deployment: the workflow id is the lock. */
export const LIVE_PROJECTOR_WORKFLOW_ID = 'live-projector';
export type LiveProjectorInput = { intervalMs: number; iterationsPerRun: number };

/**
 * Ingest committed new trades (live-projector-starter.ts `createLiveProjectorWaker`, spaced by the sender): the
 * projector evaluates the composite signal over the mints they touched now instead of at its next refresh. Signals
 * that arrive while an evaluation runs coalesce into one more evaluation.
 */
export const tradesIngestedSignal = defineSignal('tradesIngested');

/** Started by every worker (live-projector-starter.ts); runs for good, so no deadline. */
export const LIVE_PROJECTOR_CONTRACT: WorkflowContract = { workflowType: LIVE_PROJECTOR_WORKFLOW };
