import { proxyActivities } from '@temporalio/workflow';
import type { VerdictActivities } from '../../activities/verdict/verdict-activities';
import type { VerdictRunResult } from './verdict-contract';

// One read-evaluate-store; a locked verdict is never evaluated again, so a retry is harmless.
const acts = proxyActivities<VerdictActivities>({
  startToCloseTimeout: '10 minutes',
  retry: { maximumAttempts: 5, initialInterval: '10 seconds', backoffCoefficient: 2 },
});

/** Evaluates the pre-registered verdict; started every hour by a Temporal Schedule until it locks (then a no-op). */
export async function evaluateVerdict(): Promise<VerdictRunResult> {
  return acts.evaluateRegisteredVerdict();
}
