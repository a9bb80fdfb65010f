import { WorkflowIdConflictPolicy, WorkflowIdReusePolicy, type Client, type WorkflowHandle } from '@temporalio/client';
import { backfillRangeId } from '../../domain/history/backfill-range';
import { HISTORY_BACKFILL_WORKFLOW, type HistoryBackfillInput } from './history-backfill-contract';

/**
 * Starts the backfill of a range. The same range started while it runs joins it; started after it finished, it runs
 * again and skips its completed chunks (nothing is read twice).
 */
export async function startHistoryBackfill(client: Client, taskQueue: string, input: HistoryBackfillInput): Promise<WorkflowHandle> {
  return client.workflow.start(HISTORY_BACKFILL_WORKFLOW, {
    taskQueue,
    workflowId: backfillRangeId(input.fromMs, input.toMs),
    args: [input],
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
  });
}
