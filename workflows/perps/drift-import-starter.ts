import type { Client, WorkflowHandle } from '@temporalio/client';
import { startOrJoin } from '../start-or-join-starter';
import { DRIFT_IMPORT_WORKFLOW, driftImportWorkflowId, type DriftImportInput } from './drift-import-contract';

/**
 * Starts the import of one market's day files over a range. The same range started while it runs joins the running
 * import; started again after it finished, it runs again (files already imported are skipped unless `refresh`).
 */
export async function startDriftImport(client: Client, taskQueue: string, input: DriftImportInput): Promise<WorkflowHandle> {
  return startOrJoin(client, DRIFT_IMPORT_WORKFLOW, { taskQueue, workflowId: driftImportWorkflowId(input.market, input.from, input.to), input });
}
