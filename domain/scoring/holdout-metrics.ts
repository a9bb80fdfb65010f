/**
 * The measures the scorer's own held-out checks use (AUC, the log loss of one score), which the accuracy page reports
 * too: they sit here, beside the models, so that scoring never needs the accuracy area's figures
 * (domain/accuracy/forward-metrics.ts offers them with the rest).
 */

/** A predicted probability and what happened. */
export type Scored = { prob: number; label: boolean };

/**
 * Area under the ROC curve: the chance a random positive scores above a random negative, ties counting half
 * (Mann-Whitney U with average ranks). O(n log n).
 */
export function auc(xs: readonly Scored[]): number | null {
  const pos = xs.filter((x) => x.label).length;
  const neg = xs.length - pos;
  if (pos === 0 || neg === 0) return null;
  const sorted = [...xs].sort((a, b) => a.prob - b.prob);
  let rankSumPos = 0;
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j < sorted.length && sorted[j]!.prob === sorted[i]!.prob) j++;
    // Ranks i+1 … j share their average.
    const avgRank = (i + 1 + j) / 2;
    for (let t = i; t < j; t++) if (sorted[t]!.label) rankSumPos += avgRank;
    i = j;
  }
  return (rankSumPos - (pos * (pos + 1)) / 2) / (pos * neg);
}

/** Probabilities are clipped this far inside (0, 1) for the log loss: one confident miss costs ln(10⁶) ≈ 13.8, not ∞. */
export const LOG_LOSS_EPS = 1e-6;

/** The log loss of one probability for one outcome (nats). */
export function pointLogLoss(prob: number, label: boolean): number {
  const p = Math.min(1 - LOG_LOSS_EPS, Math.max(LOG_LOSS_EPS, prob));
  return -Math.log(label ? p : 1 - p);
}
