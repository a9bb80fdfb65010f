export const LIVE_PROJECTOR_WORKFLOW = 'liveProjector';
/** One projector for the whole deployment: the workflow id is the lock. */
export const LIVE_PROJECTOR_WORKFLOW_ID = 'live-projector';
export type LiveProjectorInput = { intervalMs: number; iterationsPerRun: number };
