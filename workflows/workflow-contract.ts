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
