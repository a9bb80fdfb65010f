import { WorkflowIdConflictPolicy, type Client, type WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';

/**
 * Starts `workflowType` under `workflowId`, or joins the run already open under that id: every worker start (and a
 * retried request) may call a starter, and only one run per id ever works. A closed id may run again (Temporal's
 * default reuse policy): a range imported again skips what it already holds. The area's starter names the type, the
 * id and the input; this is the one place the conflict policy is chosen.
 */
export function startOrJoin<A>(
  client: Client,
  workflowType: string,
  o: { taskQueue: string; workflowId: string; input: A },
): Promise<WorkflowHandleWithFirstExecutionRunId> {
  return client.workflow.start(workflowType, {
    taskQueue: o.taskQueue,
    workflowId: o.workflowId,
    args: [o.input],
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
  });
}
