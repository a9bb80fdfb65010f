import type { PollingInput } from '../polling-loop';
import type { WorkflowContract } from '../workflow-contract';

export const LAUNCH_METADATA_WORKFLOW = 'launchMetadataFetcher';
/** One fetcher for the whole deployment: the workflow id is the lock. */
export const LAUNCH_METADATA_WORKFLOW_ID = 'launch-metadata-fetcher';

/** `everyMs`: how long an idle fetcher waits before it looks again; a run continues as new after `iterationsPerRun` looks. */
export type LaunchMetadataInput = PollingInput;

/** One look: URIs fetched, and how many of them settled (a document, a permanent failure, the attempts spent). */
export type LaunchMetadataLook = { fetched: number; settled: number };

/**
 * Fetches each new launch's metadata URI and stores what it gave (`mint_metadata`), apart from the mint lifecycle
 * so a slow or hostile metadata host never delays a score, and so the lifecycle's recorded histories replay
 * unchanged. Started by every worker (launch-metadata-starter.ts); runs for good, so no deadline.
 */
export const LAUNCH_METADATA_CONTRACT: WorkflowContract = { workflowType: LAUNCH_METADATA_WORKFLOW };
