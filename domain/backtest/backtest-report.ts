import {
  auc,
  brier,
  calibrationCells,
  expectedCalibrationError,
  thresholdBands,
  type CellStats,
  type Scored,
  type ThresholdBand,
} from '../accuracy/forward-metrics';
import { auprc, logLoss } from '../accuracy/forward-metrics';
import { RUNNER_TIERS, tierKey, type RunnerTier } from '../scoring/runner-model';
import type { ForwardPrediction } from './walk-forward';

/**
 * One scoring age's backtest figures, with the accuracy page's own metric functions (domain/accuracy), so a
 * backtest and the live page can never disagree on what "AUC" or "≥ 0.7 precision" means.
 */
export type RunnerCalibration = {
  tier: RunnerTier;
  n: number;
  observedRate: number | null;
  meanProb: number | null;
  auc: number | null;
  brier: number | null;
  ece: number | null;
};

export type AgeReport = {
  ageS: number;
  predictions: number;
  graduated: number;
  baseRate: number | null;
  auc: number | null;
  /** AUC of the uncalibrated neighbour rate: calibration should never rank worse than it. */
  rawAuc: number | null;
  auprc: number | null;
  logLoss: number | null;
  brier: number | null;
  /** Brier of always answering the evaluated set's own graduation rate: the bar any skill must clear. */
  brierOfBaseRate: number | null;
  ece: number | null;
  bands: ThresholdBand[];
  calibration: CellStats[];
  /** Observed share of predictions after which the price reached N × the price at the call. */
  runnerRatesFromCall: { tier: RunnerTier; rate: number | null }[];
  /** Runner odds against what the price did after the call, over the predictions the runner model scored. */
  runnerOdds: RunnerCalibration[];
};

export function ageReport(ageS: number, preds: readonly ForwardPrediction[]): AgeReport {
  const scored: Scored[] = preds.map((p) => ({ prob: p.prob, label: p.graduated }));
  const graduated = scored.filter((s) => s.label).length;
  const base = preds.length === 0 ? null : graduated / preds.length;
  return {
    ageS,
    predictions: preds.length,
    graduated,
    baseRate: base,
    auc: auc(scored),
    rawAuc: auc(preds.map((p) => ({ prob: p.raw, label: p.graduated }))),
    auprc: auprc(scored),
    logLoss: logLoss(scored),
    brier: brier(scored),
    brierOfBaseRate: base === null ? null : brier(scored.map((s) => ({ prob: base, label: s.label }))),
    ece: expectedCalibrationError(scored),
    bands: thresholdBands(scored),
    calibration: calibrationCells(scored),
    runnerRatesFromCall: RUNNER_TIERS.map((tier) => ({
      tier,
      rate: preds.length === 0 ? null : preds.filter((p) => p.peakMultFromCall >= tier).length / preds.length,
    })),
    runnerOdds: runnerOddsCalibration(preds),
  };
}

export function runnerOddsCalibration(preds: readonly Pick<ForwardPrediction, 'runnerOdds' | 'peakMultFromCall'>[]): RunnerCalibration[] {
  return RUNNER_TIERS.map((tier) => {
    const scored: Scored[] = preds.flatMap((p) => (p.runnerOdds === null ? [] : [{ prob: p.runnerOdds[tierKey(tier)], label: p.peakMultFromCall >= tier }]));
    const positives = scored.filter((s) => s.label).length;
    return {
      tier,
      n: scored.length,
      observedRate: scored.length === 0 ? null : positives / scored.length,
      meanProb: scored.length === 0 ? null : scored.reduce((s, x) => s + x.prob, 0) / scored.length,
      auc: auc(scored),
      brier: brier(scored),
      ece: expectedCalibrationError(scored),
    };
  });
}
