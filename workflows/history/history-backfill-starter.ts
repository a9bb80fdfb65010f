import type { Client, WorkflowHandle } from '@temporalio/client';
import { startOrJoin } from '../start-or-join-starter';
import { backfillRangeId } from '../../domain/history/backfill-range';
import { HISTORY_BACKFILL_WORKFLOW, type HistoryBackfillInput } from './history-backfill-contract';

/**
 * Starts the backfill of a range. The same range started while it runs joins it; started after it finished, it runs
 * again and skips its completed chunks (nothing is read twice).
 */
export async function startHistoryBackfill(client: Client, taskQueue: string, input: HistoryBackfillInput): Promise<WorkflowHandle> {
  return startOrJoin(client, HISTORY_BACKFILL_WORKFLOW, { taskQueue, workflowId: backfillRangeId(input.fromMs, input.toMs), input });
}
