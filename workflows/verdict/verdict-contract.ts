import { scheduledContract } from '../workflow-contract';

/** Contract of the hourly evaluator of the pre-registered verdict (docs/preregistration/). */
export const VERDICT_WORKFLOW = 'evaluateVerdict';
export const VERDICT_SCHEDULE_ID = 'schedule:verdict';
/** Temporal appends the scheduled time: `verdict-<time>`. */
export const VERDICT_WORKFLOW_ID_PREFIX = 'verdict';

export type VerdictRunResult =
  | { state: 'pending'; preregistrationId: string; missing: string[] }
  | { state: 'locked'; preregistrationId: string; verdictId: number; branch: string; evaluationSha256: string; created: boolean };

export const VERDICT_CONTRACT = scheduledContract(VERDICT_WORKFLOW, VERDICT_SCHEDULE_ID, VERDICT_WORKFLOW_ID_PREFIX, {
  everyS: (cfg) => cfg.verdict.intervalS,
  runTimeoutS: 900,
  deadlineS: 30 * 60,
});
