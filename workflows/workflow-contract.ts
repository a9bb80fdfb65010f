import type { Config } from '../platform/config';

/**
 * A workflow that a Temporal Schedule starts: the schedule's id, the id prefix Temporal appends each run's
 * scheduled time to, the period (from the typed config) and how long one run may take.
 */
export type WorkflowSchedule = {
  scheduleId: string;
  workflowIdPrefix: string;
  everyS: (cfg: Config) => number;
  runTimeoutS: (everyS: number) => number;
};

/**
 * What the worker process needs to know about a workflow type besides its code, declared as data by the
 * workflow's contract: how it is scheduled, and how long a run may stay open before the watchdog calls it stuck.
 */
export type WorkflowContract = {
  workflowType: string;
  schedule?: WorkflowSchedule;
  deadlineS?: number;
};

/**
 * The contract of a workflow a Schedule starts: its type, the schedule's id and the run-id prefix (all three as
 * Temporal knows them, so they never change), the period from the typed config, how long one run may take (fixed,
 * or from the period) and, optionally, when the watchdog calls an open run stuck.
 */
export function scheduledContract(
  workflowType: string,
  scheduleId: string,
  workflowIdPrefix: string,
  o: { everyS: (cfg: Config) => number; runTimeoutS: number | ((everyS: number) => number); deadlineS?: number },
): WorkflowContract {
  const { runTimeoutS } = o;
  return {
    workflowType,
    schedule: { scheduleId, workflowIdPrefix, everyS: o.everyS, runTimeoutS: typeof runTimeoutS === 'number' ? () => runTimeoutS : runTimeoutS },
    ...(o.deadlineS === undefined ? {} : { deadlineS: o.deadlineS }),
  };
}
