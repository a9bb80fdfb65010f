import { fitLogisticSteps, type LogisticModel } from './logistic-regression';
import type { Steps } from './stepwise';

/** Folds of the cross-fit: each row's log-odds come from a regression that saw the other 4/5 of the rows. */
export const CROSS_FIT_FOLDS = 5;

/**
 * Out-of-fold logistic log-odds: row i (fold i mod `folds`) gets the log-odds of an L2 logistic regression fitted on
 * the rows of every other fold. A regression scores the rows it was fitted on better than unseen ones: on those rows
 * the positives sit at higher log-odds than a new positive would. The learned metric uses the log-odds as a
 * coordinate of its index rows while a query gets a regression that never saw it, so the in-sample coordinates
 * would put the index's positives where no query positive lands; out-of-fold coordinates are on the query's scale.
 * Folds interleave in row order, so each spans the whole period and none is one stretch of the market.
 */
export function* crossFittedLogOddsSteps(xs: readonly (readonly number[])[], ys: readonly boolean[], folds: number = CROSS_FIT_FOLDS): Steps<Float64Array> {
  if (ys.length !== xs.length) throw new RangeError(`${xs.length} rows but ${ys.length} labels`);
  if (!(Number.isInteger(folds) && folds >= 2)) throw new RangeError(`folds must be an integer ≥ 2, got ${folds}`);
  const out = new Float64Array(xs.length);
  for (let f = 0; f < folds; f++) {
    const trainX: (readonly number[])[] = [];
    const trainY: boolean[] = [];
    for (let i = 0; i < xs.length; i++) {
      if (i % folds === f) continue;
      trainX.push(xs[i]!);
      trainY.push(ys[i]!);
    }
    if (trainX.length === 0) continue;
    const lr: LogisticModel = yield* fitLogisticSteps(trainX, trainY);
    for (let i = f; i < xs.length; i += folds) out[i] = lr.logOdds(xs[i]!);
    yield;
  }
  return out;
}
