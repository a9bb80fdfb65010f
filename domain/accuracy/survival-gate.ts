import { expectedCalibrationError, type Scored } from './forward-metrics';

/**
 * The auto-lift gate of post_grad_survival_prob. The score is logged with every prediction from the start;
 * it is published only while a forward validation shows it calibrated:
 * - evidence: graduates whose 30-minute sustain label is known, each with the survival score logged for it
 *   before the outcome (its latest age bucket), inside the accuracy window;
 * - live when n ≥ MIN_N (300) and the expected calibration error over 10 equal-width bins is ≤
 *   MAX_CALIBRATION_ERROR (0.05); otherwise suspended. Re-evaluated at every accuracy recompute, so a model
 *   that drifts out of calibration is suspended again; `since` changes only when the state does.
 * 300 graduates is about one to four days at 2025–26 launch and graduation rates; with fewer, a 10-bin ECE
 * is mostly noise.
 */
export const SURVIVAL_GATE = { name: 'post_grad_survival', minN: 300, maxCalibrationError: 0.05 } as const;

export type GateEvidence = { n: number; positives: number; calibration_error: number | null; min_n: number; max_calibration_error: number };
export type GateState = { state: 'suspended' | 'live'; since: Date; reason: string | null; evidence: GateEvidence; evaluatedAt: Date };

export function evaluateSurvivalGate(prev: GateState | null, forward: readonly Scored[], now: Date): GateState {
  const { minN, maxCalibrationError } = SURVIVAL_GATE;
  const ece = expectedCalibrationError(forward);
  const evidence: GateEvidence = {
    n: forward.length,
    positives: forward.filter((x) => x.label).length,
    calibration_error: ece,
    min_n: minN,
    max_calibration_error: maxCalibrationError,
  };
  const calibrated = forward.length >= minN && ece !== null && ece <= maxCalibrationError;
  const state = calibrated ? 'live' : 'suspended';
  const reason = calibrated
    ? null
    : forward.length < minN
      ? `forward validation has ${forward.length} of the ${minN} resolved graduates it needs; it lifts itself once they show a calibration error of at most ${maxCalibrationError}`
      : `calibration error ${ece!.toFixed(4)} on ${forward.length} resolved graduates exceeds ${maxCalibrationError}; it lifts itself once it is at most that`;
  return { state, since: prev && prev.state === state ? prev.since : now, reason, evidence, evaluatedAt: now };
}
