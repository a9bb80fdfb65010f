import { WorkflowIdConflictPolicy, type Client, type WorkflowHandle } from '@temporalio/client';
import { BURN_RECORD_WORKFLOW, burnRecordWorkflowId, type BurnRecordInput } from './burn-record-contract';

/** Starts the recording of one burn (`burn:<signature>`); a second start while the first still retries joins it. */
export function startBurnRecord(client: Client, taskQueue: string, input: BurnRecordInput): Promise<WorkflowHandle> {
  return client.workflow.start(BURN_RECORD_WORKFLOW, {
    workflowId: burnRecordWorkflowId(input.signature),
    taskQueue,
    args: [input],
    // A second run while the first is still retrying waits for the same workflow instead of failing.
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
  });
}
