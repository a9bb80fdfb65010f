import { proxyActivities } from '@temporalio/workflow';
import type { ShadowPromotionActivities } from '../../activities/accuracy/shadow-promotion-activities';
import type { ShadowPromotionRunResult } from './shadow-promotion-contract';

// One read-judge-store per hour, idempotent per hour: retry a little, the next hour comes anyway.
const acts = proxyActivities<ShadowPromotionActivities>({
  startToCloseTimeout: '5 minutes',
  retry: { maximumAttempts: 5, initialInterval: '10 seconds', backoffCoefficient: 2 },
});

/** Judges the shadow challengers against the champion for the current hour; started by a Temporal Schedule. */
export async function judgeShadowModels(): Promise<ShadowPromotionRunResult> {
  return acts.judgeShadowModels();
}
