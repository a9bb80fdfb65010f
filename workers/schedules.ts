import type { Config } from '../platform/config';
import type { ScheduleSpec } from '../workflows/schedule-starter';
import type { WorkflowContract } from '../workflows/workflow-contract';
import { WORKFLOW_CONTRACTS } from '../workflows/workflow-contracts';

/** Every recurring job, as the workflow contracts declare it, at the periods the typed config gives. */
export function scheduleSpecs(cfg: Config, contracts: readonly WorkflowContract[] = WORKFLOW_CONTRACTS): ScheduleSpec[] {
  return contracts.flatMap(({ workflowType, schedule: s }) => {
    if (!s) return [];
    const everyS = s.everyS(cfg);
    return [{ scheduleId: s.scheduleId, workflowType, workflowIdPrefix: s.workflowIdPrefix, everyS, runTimeoutS: s.runTimeoutS(everyS) }];
  });
}
