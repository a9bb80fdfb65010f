import { WorkflowIdConflictPolicy, type Client } from '@temporalio/client';
import { LIVE_PROJECTOR_WORKFLOW, LIVE_PROJECTOR_WORKFLOW_ID, type LiveProjectorInput } from './live-projector-contract';

/** Starts the one live projector, or leaves the running one alone; every worker start may call it. */
export async function ensureLiveProjector(client: Client, taskQueue: string, intervalMs: number): Promise<void> {
  const input: LiveProjectorInput = { intervalMs, iterationsPerRun: 500 };
  await client.workflow.start(LIVE_PROJECTOR_WORKFLOW, {
    taskQueue,
    workflowId: LIVE_PROJECTOR_WORKFLOW_ID,
    args: [input],
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
  });
}
