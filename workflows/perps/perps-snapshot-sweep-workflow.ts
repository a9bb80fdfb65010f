import { ActivityFailure, proxyActivities } from '@temporalio/workflow';
import type { PerpsJudgingActivities } from '../../activities/perps/perps-judging-activities';
import type { PerpsSnapshotActivities } from '../../activities/perps/perps-snapshot-activities';
import type { SnapshotBatchResult, SweepResult } from './perps-snapshot-sweep-contract';

const quick = proxyActivities<PerpsSnapshotActivities & PerpsJudgingActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 4, initialInterval: '1 second', backoffCoefficient: 2 },
});
// A batch waits on the weight budget between wallets and heartbeats after each, so a dead worker is noticed in a
// minute; a retried batch snapshots its wallets again, which consecutive-snapshot detection takes in its stride.
const batches = proxyActivities<PerpsSnapshotActivities>({
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '1 minute',
  retry: { maximumAttempts: 3, initialInterval: '2 seconds', backoffCoefficient: 2 },
});

/** Wallets per activity call: about 200 weight, a minute or less of budget. */
export const SNAPSHOT_BATCH = 100;

/** Snapshots the due wallets, then starts the judging of the smart entries found; started by a Schedule. */
export async function perpsSnapshotSweep(): Promise<SweepResult> {
  try {
    const plan = await quick.planPerpsSnapshots();
    const t: SnapshotBatchResult = { snapshotted: 0, entries: 0, smartEntries: 0, liquidations: 0, fillRefreshes: 0, fillFailures: 0, failed: 0 };
    for (let i = 0; i < plan.wallets.length; i += SNAPSHOT_BATCH) {
      const r = await batches.snapshotPerpsWallets({ wallets: plan.wallets.slice(i, i + SNAPSHOT_BATCH), pickedAt: plan.pickedAt });
      for (const k of Object.keys(t) as (keyof SnapshotBatchResult)[]) t[k] += r[k];
    }
    const { started } = await quick.startPerpsJudging();
    const result: SweepResult = { ...t, due: plan.wallets.length, limit: plan.limit, maxLatenessS: plan.maxLatenessS, judgingStarted: started };
    await quick.recordPerpsSweep(result);
    return result;
  } catch (e) {
    if (e instanceof ActivityFailure) await quick.recordPerpsPollerFailure({ name: 'snapshots', error: e.cause?.message ?? e.message });
    throw e;
  }
}
