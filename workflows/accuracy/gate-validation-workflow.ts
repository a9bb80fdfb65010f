import { proxyActivities } from '@temporalio/workflow';
import type { GateValidationActivities } from '../../activities/accuracy/gate-validation-activities';
import type { GateValidationRunResult } from './gate-validation-contract';

// One read-decide-store per hour, idempotent per hour: retry a little, the next hour comes anyway.
const acts = proxyActivities<GateValidationActivities>({
  startToCloseTimeout: '5 minutes',
  retry: { maximumAttempts: 5, initialInterval: '10 seconds', backoffCoefficient: 2 },
});

/** Runs the gate validation of the current hour; started every hour by a Temporal Schedule. */
export async function validateSurvivalGate(): Promise<GateValidationRunResult> {
  return acts.runGateValidation();
}
