import { pointLogLoss } from './holdout-metrics';
import { checkNeighbours, fitCalibrator, smoothedKnnRate, type CalibrationOptions, type Calibrator } from './calibration';
import { fitLogisticSteps } from './logistic-regression';
import { runSteps, type Steps } from './stepwise';

/**
 * The calibration of a learned-metric fit, chosen per fit by held-out log loss among three maps of the (possibly
 * fractional) neighbour vote:
 *
 * - `platt`: σ(a + b·logit(r)), r the smoothed rate (positives + m·base) / (k + m), fitted by logistic regression.
 *   Strictly increasing (a fit with b ≤ 0 is not a candidate), so it keeps the raw vote's order exactly: the score
 *   ranks as the neighbour vote ranks, ties only where the votes tie.
 * - `isotonic`: centred isotonic (calibration.ts): monotone, but flat below the lowest and above the highest block
 *   centre, so it ties every row out there.
 * - `isotonic-step`: the isotonic steps as fitted, tying every raw score inside a pooled block.
 *
 * The held-out loss of a candidate is cross-fitted on the calibration slice itself: the slice (in time order) is cut
 * in two halves, the candidate is fitted on each and scored on the other, and the two losses are averaged over all
 * rows. No candidate is judged on rows it was fitted on. The winner is refitted on the whole slice. Exact ties go to
 * the earlier candidate in CALIBRATION_CANDIDATES (strictly monotone first). Below `minSamples` rows no map is fitted
 * (the smoothed rate, as calibration.ts).
 */
export type NeighbourSample = { positives: number; k: number; label: boolean };

export const CALIBRATION_CANDIDATES = ['platt', 'isotonic', 'isotonic-step'] as const;
export type CalibrationCandidate = (typeof CALIBRATION_CANDIDATES)[number];

export type CalibrationChoice = {
  calibrator: Calibrator;
  /** Cross-fitted mean log loss per candidate (Infinity when it could not be fitted); null with no fit. */
  losses: Record<CalibrationCandidate, number> | null;
};

type Opts = Required<Pick<CalibrationOptions, 'baseRate' | 'priorStrength' | 'minSamples'>>;

/** A Platt map of the smoothed neighbour rate's log-odds; null when the fit does not increase with the vote. */
export function fitPlattCalibrator(samples: readonly NeighbourSample[], opts: Omit<Opts, 'minSamples'>): Calibrator | null {
  return runSteps(fitPlattCalibratorSteps(samples, opts));
}

function* fitPlattCalibratorSteps(samples: readonly NeighbourSample[], opts: Omit<Opts, 'minSamples'>): Steps<Calibrator | null> {
  const z = (positives: number, k: number) => {
    const r = smoothedKnnRate(positives, k, opts.baseRate, opts.priorStrength);
    return Math.log(r / (1 - r));
  };
  if (samples.length === 0) return null;
  const lr = yield* fitLogisticSteps(
    samples.map((s) => [z(s.positives, s.k)]),
    samples.map((s) => s.label),
  );
  if (!(lr.coef[0]! > 0)) return null;
  return {
    method: 'platt',
    samples: samples.length,
    baseRate: opts.baseRate,
    blocks: [],
    apply(grads, k) {
      checkNeighbours(grads, k);
      return lr.predict([z(grads, k)]);
    },
  };
}

export function fitCalibrationCandidate(method: CalibrationCandidate, samples: readonly NeighbourSample[], opts: Opts): Calibrator | null {
  return runSteps(fitCalibrationCandidateSteps(method, samples, opts));
}

/** One candidate's fit; the Platt map's logistic regression pauses between pieces of its passes. */
function* fitCalibrationCandidateSteps(method: CalibrationCandidate, samples: readonly NeighbourSample[], opts: Opts): Steps<Calibrator | null> {
  if (method === 'platt') return yield* fitPlattCalibratorSteps(samples, opts);
  const raw = samples.map((s) => ({ raw: s.k === 0 ? opts.baseRate : s.positives / s.k, label: s.label }));
  return fitCalibrator(raw, { ...opts, shape: method === 'isotonic-step' ? 'step' : 'centred' });
}

function heldOutLoss(c: Calibrator | null, rows: readonly NeighbourSample[]): number {
  if (c === null) return Infinity;
  return rows.reduce((s, r) => s + pointLogLoss(c.apply(r.positives, r.k), r.label), 0);
}

export function chooseCalibrator(samples: readonly NeighbourSample[], opts: Opts): CalibrationChoice {
  return runSteps(chooseCalibratorSteps(samples, opts));
}

/**
 * `chooseCalibrator` in pieces: seven fits on up to the whole held-out slice (two halves per candidate, then the
 * winner) take a few hundred milliseconds together at 20,000 rows, so it pauses after each fit and each held-out loss.
 */
export function* chooseCalibratorSteps(samples: readonly NeighbourSample[], opts: Opts): Steps<CalibrationChoice> {
  if (samples.length < opts.minSamples || samples.length < 2) {
    return { calibrator: fitCalibrator([], { ...opts, minSamples: Math.max(1, opts.minSamples) }), losses: null };
  }
  const half = Math.floor(samples.length / 2);
  const first = samples.slice(0, half);
  const second = samples.slice(half);
  // Inside the cross-fit every half is fitted whatever its size: the minimum applies to the whole slice.
  const inner = { ...opts, minSamples: 1 };
  const losses = {} as Record<CalibrationCandidate, number>;
  for (const c of CALIBRATION_CANDIDATES) {
    const onFirst = yield* fitCalibrationCandidateSteps(c, first, inner);
    yield;
    const lossSecond = heldOutLoss(onFirst, second);
    yield;
    const onSecond = yield* fitCalibrationCandidateSteps(c, second, inner);
    yield;
    losses[c] = (lossSecond + heldOutLoss(onSecond, first)) / samples.length;
    yield;
  }
  let best: CalibrationCandidate = CALIBRATION_CANDIDATES[0];
  for (const c of CALIBRATION_CANDIDATES) if (losses[c] < losses[best]) best = c;
  const calibrator = (yield* fitCalibrationCandidateSteps(best, samples, opts)) ?? fitCalibrator([], { ...opts, minSamples: 1 });
  return { calibrator, losses };
}
