import type { Client } from '@temporalio/client';
import { startOrJoin } from '../start-or-join-starter';
import { LAUNCH_METADATA_WORKFLOW, LAUNCH_METADATA_WORKFLOW_ID, type LaunchMetadataInput } from './launch-metadata-contract';

/** Starts the one metadata fetcher, or leaves the running one alone; every worker start may call it. */
export async function ensureLaunchMetadataFetcher(client: Client, taskQueue: string, everyMs: number): Promise<void> {
  const input: LaunchMetadataInput = { everyMs, iterationsPerRun: 1000 };
  await startOrJoin(client, LAUNCH_METADATA_WORKFLOW, { taskQueue, workflowId: LAUNCH_METADATA_WORKFLOW_ID, input });
}
