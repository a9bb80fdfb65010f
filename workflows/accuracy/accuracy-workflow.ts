import { proxyActivities } from '@temporalio/workflow';
import type { AccuracyActivities } from '../../activities/accuracy/accuracy-activities';
import type { AccuracyResult } from './accuracy-contract';

// One read-compute-write; the next tick comes in minutes, so retry a little and never pile up.
const acts = proxyActivities<AccuracyActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { maximumAttempts: 3, initialInterval: '5 seconds', backoffCoefficient: 2 },
});

/** Recomputes the cached accuracy page and the survival gate; started every few minutes by a Temporal Schedule. */
export async function recomputeAccuracy(): Promise<AccuracyResult> {
  return acts.recomputeAccuracy();
}
