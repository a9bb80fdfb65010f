import type { GateDecision } from '../../domain/accuracy/gate-validation';
import { scheduledContract } from '../workflow-contract';

/** Contract of the hourly gate validation of post_grad_survival_prob (spec section 2, "Gate validation record"). */
export const GATE_VALIDATION_WORKFLOW = 'validateSurvivalGate';
export const GATE_VALIDATION_SCHEDULE_ID = 'schedule:gate-validation';
/** Temporal appends the scheduled time: `gate-validation-<time>`. */
export const GATE_VALIDATION_WORKFLOW_ID_PREFIX = 'gate-validation';

export type GateValidationRunResult = { runId: number; windowEnd: string; decision: GateDecision; n: number; created: boolean };

export const GATE_VALIDATION_CONTRACT = scheduledContract(GATE_VALIDATION_WORKFLOW, GATE_VALIDATION_SCHEDULE_ID, GATE_VALIDATION_WORKFLOW_ID_PREFIX, {
  everyS: (cfg) => cfg.accuracy.gateValidationIntervalS,
  runTimeoutS: 600,
  deadlineS: 15 * 60,
});
