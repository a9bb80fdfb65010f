import type { Scored } from './forward-metrics';

/**
 * Two figures beside AUC for a rare positive class: log loss (how good the probabilities are, not only their order)
 * and AUPRC (ranking quality where it matters when positives are ~1%: the top of the list). Null where undefined.
 */

/** Mean negative log-likelihood; probabilities are clipped to [1e-15, 1 − 1e-15] so one certainty cannot read ∞. */
export function logLoss(xs: readonly Scored[]): number | null {
  if (!xs.length) return null;
  let s = 0;
  for (const x of xs) {
    const p = Math.min(1 - 1e-15, Math.max(1e-15, x.prob));
    s -= x.label ? Math.log(p) : Math.log(1 - p);
  }
  return s / xs.length;
}

/**
 * Area under the precision-recall curve as average precision: Σ over the distinct scores, highest first, of
 * (recall gained) × (precision at that score), tied scores taken as one step (no order inside a tie is invented).
 * A random ranking scores about the base rate.
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
    // j scores seen so far: precision at this threshold.
    ap += (gained / pos) * (tp / j);
    i = j;
  }
  return ap;
}
