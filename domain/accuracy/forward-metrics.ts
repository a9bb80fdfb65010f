import { CONFIDENCE_BANDS, confidenceBand, type ConfidenceBand } from '../scoring/confidence-band';
import { pointLogLoss, type Scored } from '../scoring/holdout-metrics';

/**
 * Accuracy figures over (predicted probability, outcome) pairs. Every function answers null where the figure
 * is undefined (no pairs, or AUC without both classes) rather than a number that means nothing. AUC and the log loss
 * of one score are the scorer's own measures too, so they are defined beside the models (domain/scoring/holdout-metrics.ts)
 * and offered here with the rest.
 */
export { auc, LOG_LOSS_EPS, pointLogLoss, type Scored } from '../scoring/holdout-metrics';

/** The bands the accuracy page reports precision for: predictions at or above each. */
export const THRESHOLDS = [0.5, 0.7, 0.9] as const;
/** Equal-width bins for the expected calibration error. */
export const ECE_BINS = 10;

export function brier(xs: readonly Scored[]): number | null {
  if (!xs.length) return null;
  let s = 0;
  for (const x of xs) s += (x.prob - (x.label ? 1 : 0)) ** 2;
  return s / xs.length;
}

/** Σ over equal-width bins of (bin share) × |mean predicted − actual rate|; the last bin holds 1. */
export function expectedCalibrationError(xs: readonly Scored[], bins = ECE_BINS): number | null {
  if (!xs.length) return null;
  const n = new Array<number>(bins).fill(0);
  const p = new Array<number>(bins).fill(0);
  const y = new Array<number>(bins).fill(0);
  for (const x of xs) {
    const b = Math.min(bins - 1, Math.floor(x.prob * bins));
    n[b]!++;
    p[b]! += x.prob;
    y[b]! += x.label ? 1 : 0;
  }
  let e = 0;
  for (let b = 0; b < bins; b++) if (n[b]! > 0) e += (n[b]! / xs.length) * Math.abs(p[b]! / n[b]! - y[b]! / n[b]!);
  return e;
}

export type ThresholdBand = { minProb: number; n: number; positives: number; precision: number | null };

export function thresholdBands(xs: readonly Scored[], thresholds: readonly number[] = THRESHOLDS): ThresholdBand[] {
  return thresholds.map((t) => {
    const kept = xs.filter((x) => x.prob >= t);
    const positives = kept.filter((x) => x.label).length;
    return { minProb: t, n: kept.length, positives, precision: kept.length ? positives / kept.length : null };
  });
}

export type CellStats = { band: ConfidenceBand; n: number; positives: number; meanPredicted: number | null; actualRate: number | null };

/** One cell per confidence band (empty ones included, with n = 0). */
export function calibrationCells(xs: readonly Scored[]): CellStats[] {
  const cells = CONFIDENCE_BANDS.map((band) => ({ band, n: 0, positives: 0, sumP: 0 }));
  for (const x of xs) {
    const lo = confidenceBand(x.prob).lo;
    const c = cells.find((c) => c.band.lo === lo)!;
    c.n++;
    c.sumP += x.prob;
    if (x.label) c.positives++;
  }
  return cells.map((c) => ({
    band: c.band,
    n: c.n,
    positives: c.positives,
    meanPredicted: c.n ? c.sumP / c.n : null,
    actualRate: c.n ? c.positives / c.n : null,
  }));
}

/**
 * Area under the precision-recall curve as average precision: Σ over distinct score thresholds (highest first) of the
 * recall gained there × the precision at it, tied scores taken together. Where positives are 1–2% of launches it says
 * what AUC hides: how clean the top of the ranking is. Its no-skill value is the base rate, so read it beside that.
 * Null without a positive.
 */
export function auprc(xs: readonly Scored[]): number | null {
  const pos = xs.filter((x) => x.label).length;
  if (pos === 0) return null;
  const sorted = [...xs].sort((a, b) => b.prob - a.prob);
  let tp = 0;
  let ap = 0;
  for (let i = 0; i < sorted.length;) {
    let j = i;
    let gained = 0;
    while (j < sorted.length && sorted[j]!.prob === sorted[i]!.prob) {
      if (sorted[j]!.label) gained++;
      j++;
    }
    tp += gained;
    // Precision over everything ranked at or above this score (j items).
    if (gained > 0) ap += (gained / pos) * (tp / j);
    i = j;
  }
  return ap;
}

/** Mean log loss (nats): the proper score the promotion rule judges by; null while there are no pairs. */
export function logLoss(xs: readonly Scored[]): number | null {
  if (!xs.length) return null;
  let s = 0;
  for (const x of xs) s += pointLogLoss(x.prob, x.label);
  return s / xs.length;
}

/** The share of positives: the no-skill precision every precision figure is read against. */
export function baseRate(xs: readonly Scored[]): number | null {
  return xs.length ? xs.filter((x) => x.label).length / xs.length : null;
}
