import type { Client, WorkflowHandle } from '@temporalio/client';
import { startOrJoin } from '../start-or-join-starter';
import { BURN_RECORD_WORKFLOW, burnRecordWorkflowId, type BurnRecordInput } from './burn-record-contract';

/** Starts the recording of one burn (`burn:<signature>`); a second start while the first still retries joins it. */
export function startBurnRecord(client: Client, taskQueue: string, input: BurnRecordInput): Promise<WorkflowHandle> {
  return startOrJoin(client, BURN_RECORD_WORKFLOW, { taskQueue, workflowId: burnRecordWorkflowId(input.signature), input });
}
