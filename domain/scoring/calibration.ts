import { fitIsotonic, interpolate, poolBlocks, stepValue, type IsotonicBlock } from './isotonic-regression';

/**
 * Turns a raw k-NN score (graduated neighbours ÷ neighbours) into a probability that means what it says.
 * Raw k-NN saturates: 50 graduated neighbours read 1.0, and the anchor service's thresholds on such values
 * fired erratically. So:
 *
 * - Isotonic regression (PAV) of label on raw score, fitted on held-out samples (the caller guarantees they
 *   are later than, and disjoint from, the index), evaluated by linear interpolation between block centres
 *   (see isotonic-regression.ts for why not flat steps).
 * - Every block is shrunk towards the base rate: (positives + m·base) / (n + m), a Beta(m·base, m·(1−base))
 *   prior worth m observations. A block of 3 graduates out of 3 becomes ~0.23 at m = 10, base 1%, not 1.0.
 *   Shrinking can break monotonicity (a small high block falls below a large lower one), so PAV runs again
 *   over the shrunk values weighted by n + m. Every value stays strictly inside (0, 1).
 * - With fewer than `minSamples` held-out samples isotonic is not trusted; the fallback is the smoothed
 *   neighbour rate (grads + m·base) / (k + m), which needs no fit and still never reads 0 or 1.
 */
export type CalibrationSample = { raw: number; label: boolean };

export type CalibrationMethod = 'isotonic' | 'isotonic-step' | 'platt' | 'smoothed-knn';

export type CalibrationOptions = {
  /** Prior mean; must be inside (0, 1). */
  baseRate: number;
  /** Prior weight m, in pseudo-observations. */
  priorStrength?: number;
  minSamples?: number;
  /** How the isotonic fit is read between blocks: linearly between block centres (default) or as flat steps. */
  shape?: 'centred' | 'step';
};

/** A final calibration block: the raw range it pooled, its centre (the interpolation knot) and real counts. */
export type CalibratedBlock = { rawLo: number; rawHi: number; rawCentre: number; n: number; positives: number; prob: number };

export interface Calibrator {
  /**
   * `isotonic`: centred isotonic (linear between block centres); `isotonic-step`: flat isotonic steps; `platt`: a
   * logistic map of the smoothed rate's log-odds (calibration-choice.ts); `smoothed-knn`: no fit, too few rows.
   */
  readonly method: CalibrationMethod;
  /** Held-out samples the calibrator was fitted on (0 for the fallback). */
  readonly samples: number;
  readonly baseRate: number;
  readonly blocks: readonly CalibratedBlock[];
  /** Probability for `grads` graduated among `k` neighbours; the base rate when there are no neighbours. */
  apply(grads: number, k: number): number;
}

export const DEFAULT_PRIOR_STRENGTH = 10;
export const DEFAULT_MIN_CALIBRATION_SAMPLES = 200;

export function checkNeighbours(grads: number, k: number): void {
  if (!(k >= 0 && grads >= 0 && grads <= k)) throw new RangeError(`bad neighbour counts ${grads}/${k}`);
}

export function smoothedKnnRate(grads: number, k: number, baseRate: number, priorStrength = DEFAULT_PRIOR_STRENGTH): number {
  return (grads + priorStrength * baseRate) / (k + priorStrength);
}

export function fitCalibrator(samples: readonly CalibrationSample[], opts: CalibrationOptions): Calibrator {
  const base = opts.baseRate;
  const m = opts.priorStrength ?? DEFAULT_PRIOR_STRENGTH;
  if (!(base > 0 && base < 1)) throw new RangeError(`baseRate must be inside (0, 1), got ${base}`);
  if (!(m > 0)) throw new RangeError(`priorStrength must be > 0, got ${m}`);

  if (samples.length < (opts.minSamples ?? DEFAULT_MIN_CALIBRATION_SAMPLES) || samples.length === 0) {
    return {
      method: 'smoothed-knn',
      samples: 0,
      baseRate: base,
      blocks: [],
      apply(grads, k) {
        checkNeighbours(grads, k);
        return smoothedKnnRate(grads, k, base, m);
      },
    };
  }

  const fitted = fitIsotonic(samples.map((s) => ({ x: s.raw, y: s.label ? 1 : 0 })));
  const shrunk: IsotonicBlock[] = fitted.map((b) => {
    const value = (b.sumY + m * base) / (b.weight + m);
    // The prior's pseudo-observations sit at the block's centre, so they move its value, not its position.
    const weight = b.weight + m;
    return { ...b, weight, sumX: (b.sumX / b.weight) * weight, sumY: value * weight, value };
  });
  const monotone = poolBlocks(shrunk);
  // Report real counts per final block (the pooled weight includes m pseudo-observations per merged block).
  const blocks: CalibratedBlock[] = monotone.map((b) => {
    const inside = fitted.filter((f) => f.xLo >= b.xLo && f.xHi <= b.xHi);
    return {
      rawLo: b.xLo,
      rawHi: b.xHi,
      rawCentre: b.sumX / b.weight,
      n: inside.reduce((s, f) => s + f.weight, 0),
      positives: inside.reduce((s, f) => s + f.sumY, 0),
      prob: b.value,
    };
  });
  const step = opts.shape === 'step';
  return {
    method: step ? 'isotonic-step' : 'isotonic',
    samples: samples.length,
    baseRate: base,
    blocks,
    apply(grads, k) {
      checkNeighbours(grads, k);
      if (k === 0) return base;
      return step ? stepValue(monotone, grads / k) : interpolate(monotone, grads / k);
    },
  };
}
