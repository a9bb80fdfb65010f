import { CONFIDENCE_BANDS } from '../scoring/confidence-band';
import { auc, brierScore, calibrationTable, expectedCalibrationError, positiveRate, thresholdBands, type CalibrationRow, type Scored, type ThresholdBand } from './forward-metrics';
import type { ForwardPrediction } from './walk-forward';

/** The bands the product reports precision for (issue 4): predictions at or above each. */
export const REPORT_THRESHOLDS = [0.5, 0.7, 0.9] as const;
/** From-call runner tiers of the spec (runner_prob_{N}x_from_now). */
export const RUNNER_TIERS = [2, 3, 5, 10, 20] as const;
export type RunnerTier = (typeof RUNNER_TIERS)[number];

export type AgeReport = {
  ageS: number;
  predictions: number;
  graduated: number;
  baseRate: number | null;
  auc: number | null;
  brier: number | null;
  /** Brier of always answering the evaluated set's own graduation rate: the bar any skill must clear. */
  brierOfBaseRate: number | null;
  ece: number | null;
  bands: ThresholdBand[];
  calibration: CalibrationRow[];
  /** Observed share of predictions after which the price reached N × the price at the call. */
  runnerRatesFromCall: { tier: RunnerTier; rate: number | null }[];
};

export function ageReport(ageS: number, preds: readonly ForwardPrediction[]): AgeReport {
  const scored: Scored[] = preds.map((p) => ({ prob: p.prob, label: p.graduated }));
  const base = positiveRate(scored);
  return {
    ageS,
    predictions: preds.length,
    graduated: scored.filter((s) => s.label).length,
    baseRate: base,
    auc: auc(scored),
    brier: brierScore(scored),
    brierOfBaseRate: base === null ? null : brierScore(scored.map((s) => ({ prob: base, label: s.label }))),
    ece: expectedCalibrationError(scored),
    bands: thresholdBands(scored, REPORT_THRESHOLDS),
    calibration: calibrationTable(scored, CONFIDENCE_BANDS),
    runnerRatesFromCall: RUNNER_TIERS.map((tier) => ({ tier, rate: preds.length === 0 ? null : preds.filter((p) => p.peakMultFromCall >= tier).length / preds.length })),
  };
}

export type RunnerCalibration = { tier: RunnerTier; n: number; observedRate: number | null; meanProb: number | null; brier: number | null; ece: number | null };

/**
 * Hook for runner odds: how runner_prob_{N}x_from_now predictions fared against what the price did after
 * the call. Pure and ready; it needs the runner-odds model (branch `models`) to produce the probabilities.
 */
export function runnerOddsCalibration(preds: readonly { runnerProbs: Record<RunnerTier, number>; peakMultFromCall: number }[]): RunnerCalibration[] {
  return RUNNER_TIERS.map((tier) => {
    const scored: Scored[] = preds.map((p) => ({ prob: p.runnerProbs[tier], label: p.peakMultFromCall >= tier }));
    return {
      tier,
      n: scored.length,
      observedRate: positiveRate(scored),
      meanProb: scored.length === 0 ? null : scored.reduce((s, x) => s + x.prob, 0) / scored.length,
      brier: brierScore(scored),
      ece: expectedCalibrationError(scored),
    };
  });
}
