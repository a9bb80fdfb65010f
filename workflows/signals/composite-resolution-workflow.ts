import { proxyActivities } from '@temporalio/workflow';
import type { CompositeResolutionActivities } from '../../activities/signals/composite-resolution-activities';
import type { CompositeResolutionResult } from './composite-resolution-contract';

// Each row's resolution is idempotent (written once), so a retried run only finishes what the last one began.
const acts = proxyActivities<CompositeResolutionActivities>({
  startToCloseTimeout: '5 minutes',
  retry: { maximumAttempts: 5, initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

/** Resolves every composite prediction whose 24 h horizon has passed; started by a Temporal Schedule. */
export async function resolveCompositePredictions(): Promise<CompositeResolutionResult> {
  return acts.resolveDueCompositePredictions();
}
