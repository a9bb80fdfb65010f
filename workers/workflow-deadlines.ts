import type { WorkflowContract } from '../workflows/workflow-contract';
import { WORKFLOW_CONTRACTS } from '../workflows/workflow-contracts';

/** How long each workflow type may stay open before the watchdog calls it stuck, as its contract declares. */
export function workflowDeadlinesS(contracts: readonly WorkflowContract[] = WORKFLOW_CONTRACTS): Record<string, number> {
  return Object.fromEntries(contracts.flatMap((c) => (c.deadlineS === undefined ? [] : [[c.workflowType, c.deadlineS]])));
}
