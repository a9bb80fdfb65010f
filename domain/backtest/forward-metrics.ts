import type { ConfidenceBand } from '../scoring/confidence-band';

/**
 * Accuracy measures over forward predictions (probability, then what happened). Every function is pure and
 * answers null where the figure does not exist (no predictions, or no positives or negatives for AUC),
 * never a made-up number.
 */
export type Scored = { prob: number; label: boolean };

/**
 * Area under the ROC curve: the probability that a random positive scores above a random negative, ties
 * counting one half (Mann-Whitney U with mid-ranks). Null without both classes.
 */
export function auc(xs: readonly Scored[]): number | null {
  const pos = xs.filter((x) => x.label).length;
  const neg = xs.length - pos;
  if (pos === 0 || neg === 0) return null;
  const sorted = [...xs].sort((a, b) => a.prob - b.prob);
  let rankSumPos = 0;
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j < sorted.length && sorted[j]!.prob === sorted[i]!.prob) j++;
    // Ranks i+1 .. j share their mean.
    const midRank = (i + 1 + j) / 2;
    for (let t = i; t < j; t++) if (sorted[t]!.label) rankSumPos += midRank;
    i = j;
  }
  return (rankSumPos - (pos * (pos + 1)) / 2) / (pos * neg);
}

/** Mean squared difference between probability and outcome (0 perfect, 0.25 for a constant 0.5). */
export function brierScore(xs: readonly Scored[]): number | null {
  if (xs.length === 0) return null;
  return xs.reduce((s, x) => (checkProb(x.prob), s + (x.prob - (x.label ? 1 : 0)) ** 2), 0) / xs.length;
}

/**
 * Expected calibration error over `bins` equal-width probability bins (the last one closed at 1): the
 * prediction-weighted mean of |mean probability − observed rate| per bin.
 */
export function expectedCalibrationError(xs: readonly Scored[], bins = 10): number | null {
  if (!(Number.isInteger(bins) && bins > 0)) throw new RangeError(`bins must be a positive integer, got ${bins}`);
  if (xs.length === 0) return null;
  const n = new Array<number>(bins).fill(0);
  const sumP = new Array<number>(bins).fill(0);
  const sumY = new Array<number>(bins).fill(0);
  for (const x of xs) {
    checkProb(x.prob);
    const b = Math.min(bins - 1, Math.floor(x.prob * bins));
    n[b]!++;
    sumP[b]! += x.prob;
    sumY[b]! += x.label ? 1 : 0;
  }
  let ece = 0;
  for (let b = 0; b < bins; b++) if (n[b]! > 0) ece += (n[b]! / xs.length) * Math.abs(sumP[b]! / n[b]! - sumY[b]! / n[b]!);
  return ece;
}

export type ThresholdBand = { threshold: number; count: number; positives: number; precision: number | null };

/** Per threshold, the predictions at or above it, how many came true and that share (the "≥ 0.70 band"). */
export function thresholdBands(xs: readonly Scored[], thresholds: readonly number[]): ThresholdBand[] {
  return thresholds.map((threshold) => {
    let count = 0;
    let positives = 0;
    for (const x of xs) {
      if (x.prob >= threshold) {
        count++;
        if (x.label) positives++;
      }
    }
    return { threshold, count, positives, precision: count === 0 ? null : positives / count };
  });
}

export type CalibrationRow = ConfidenceBand & { n: number; meanProb: number | null; actualRate: number | null };

/** Predictions per confidence cell ([lo, hi), the last closed), with their mean probability and observed rate. */
export function calibrationTable(xs: readonly Scored[], cells: readonly ConfidenceBand[]): CalibrationRow[] {
  return cells.map((c, i) => {
    const last = i === cells.length - 1;
    const inside = xs.filter((x) => x.prob >= c.lo && (x.prob < c.hi || (last && x.prob <= c.hi)));
    const n = inside.length;
    return {
      ...c,
      n,
      meanProb: n === 0 ? null : inside.reduce((s, x) => s + x.prob, 0) / n,
      actualRate: n === 0 ? null : inside.filter((x) => x.label).length / n,
    };
  });
}

export function positiveRate(xs: readonly Scored[]): number | null {
  return xs.length === 0 ? null : xs.filter((x) => x.label).length / xs.length;
}

function checkProb(p: number): void {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`probability out of [0, 1]: ${p}`);
}
