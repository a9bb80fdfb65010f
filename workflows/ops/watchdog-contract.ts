import { scheduledContract } from '../workflow-contract';

/** Contract of the watchdog: the only watchdog module that non-workflow code imports at runtime. */
export const WATCHDOG_WORKFLOW = 'watchdogTick';
export const WATCHDOG_SCHEDULE_ID = 'schedule:watchdog';
/** Temporal appends the scheduled time, so each tick has its own id: `watchdog-<time>`. */
export const WATCHDOG_WORKFLOW_ID_PREFIX = 'watchdog';

export type WatchdogResult = { raised: string[]; cleared: string[]; alerts: number };

// Sampling is cheap: a late tick is skipped rather than queued behind a running one.
export const WATCHDOG_CONTRACT = scheduledContract(WATCHDOG_WORKFLOW, WATCHDOG_SCHEDULE_ID, WATCHDOG_WORKFLOW_ID_PREFIX, {
  everyS: (cfg) => cfg.watchdog.intervalS,
  runTimeoutS: 120,
  deadlineS: 5 * 60,
});
