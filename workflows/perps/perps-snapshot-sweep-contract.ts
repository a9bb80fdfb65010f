import { scheduledContract } from '../workflow-contract';

export const PERPS_SNAPSHOT_SWEEP_WORKFLOW = 'perpsSnapshotSweep';
export const PERPS_SNAPSHOT_SWEEP_SCHEDULE_ID = 'schedule:perps-snapshots';

export type SnapshotPlan = { pickedAt: string; wallets: string[]; limit: number; maxLatenessS: number | null };
export type SnapshotBatchResult = {
  snapshotted: number;
  entries: number;
  smartEntries: number;
  liquidations: number;
  fillRefreshes: number;
  fillFailures: number;
  failed: number;
};
export type SweepResult = SnapshotBatchResult & { due: number; limit: number; maxLatenessS: number | null; judgingStarted: number };

/**
 * Every PERPS_SNAPSHOT_SWEEP_S: snapshots the watched wallets that are due, in batches within the weight budget.
 * A sweep still running when the next is due makes that one skip (the Schedule's overlap policy), so under load
 * wallets are simply snapshotted late, and the lateness is in each run's result.
 */
export const PERPS_SNAPSHOT_SWEEP_CONTRACT = scheduledContract(PERPS_SNAPSHOT_SWEEP_WORKFLOW, PERPS_SNAPSHOT_SWEEP_SCHEDULE_ID, 'perps-snapshots', {
  everyS: (cfg) => cfg.perps.snapshotSweepS,
  runTimeoutS: 30 * 60,
  deadlineS: 45 * 60,
});
