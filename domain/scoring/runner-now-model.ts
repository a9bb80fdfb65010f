import { fitKnnLabelModelSteps, JEFFREYS_PRIOR, modelVersionHashSteps, type LabelFit } from './knn-label-model';
import type { RunnerGridAge } from './runner-grid';
import { nonIncreasingOdds, RUNNER_TIERS, tierKey, type RunnerOdds } from './runner-model';
import { RUNNER_NOW_FEATURE_KEYS, runnerNowVector, type RunnerNowFeatures } from './runner-now-features';
import { runSteps, type Steps } from './stepwise';

/**
 * runner_prob_{N}x_from_now at any age: the probability that the price reaches N × the price NOW within the 24 h
 * horizon, for a mint of any age on the live list. One k-NN label model per grid age (runner-grid.ts) over resolved
 * mints as they stood at that age; a neighbour counts for tier N when its peak after that age reached N × its own
 * price then. Calibration, the warming threshold and the non-increasing tiers are those of runner-model.ts.
 *
 * The distance is pluggable (`RunnerNowMetric`): the model asks the metric for each row's vector and the k-NN index
 * z-scores it, so a learned metric (a feature subset, or a map into a learned space) plugs in without touching the
 * fit; its name enters the model version. Weights that z-scoring would undo belong in the metric's map.
 */
export const RUNNER_NOW_MODEL_NAME = 'runner-now-v1';
/** Resolved rows at a grid age before that age's odds are published. */
export const MIN_RUNNER_NOW_CORPUS = 200;

export type RunnerNowMetric = { name: string; dims: number; vectorOf: (f: RunnerNowFeatures) => readonly number[] };

/** Every feature, z-scored, Euclidean: the default until a learned metric is chosen on held-out loss. */
export const ZSCORE_METRIC: RunnerNowMetric = { name: 'z', dims: RUNNER_NOW_FEATURE_KEYS.length, vectorOf: runnerNowVector };

export type RunnerNowRow = { mint: string; ageS: RunnerGridAge; features: RunnerNowFeatures; peakMult: number; observedAt: Date };

export type RunnerNowModelOptions = {
  ageS: RunnerGridAge;
  metric?: RunnerNowMetric;
  minSamples?: number;
  k?: number;
  calibrationShare?: number;
  minCalibrationSamples?: number;
  priorStrength?: number;
};

export interface RunnerNowModel {
  readonly version: string;
  readonly ageS: RunnerGridAge;
  readonly status: 'warming' | 'live';
  readonly corpusSize: number;
  readonly minSamples: number;
  readonly labels: readonly LabelFit[];
  /** Non-increasing across tiers; null while warming. */
  score(features: RunnerNowFeatures): RunnerOdds | null;
}

export function* fitRunnerNowModelSteps(corpus: readonly RunnerNowRow[], o: RunnerNowModelOptions): Steps<RunnerNowModel> {
  const metric = o.metric ?? ZSCORE_METRIC;
  const minSamples = o.minSamples ?? MIN_RUNNER_NOW_CORPUS;
  for (const r of corpus) {
    if (r.ageS !== o.ageS) throw new RangeError(`row ${r.mint} is at age ${r.ageS}, model is for ${o.ageS}`);
    if (!(Number.isFinite(r.peakMult) && r.peakMult > 0)) throw new RangeError(`row ${r.mint}: peak multiple must be a positive number, got ${r.peakMult}`);
  }
  const vectorOf = (r: RunnerNowRow) => metric.vectorOf(r.features);
  const core = yield* fitKnnLabelModelSteps(corpus, {
    dims: metric.dims,
    vectorOf,
    labels: RUNNER_TIERS.map(tierKey),
    labelsOf: (r) => RUNNER_TIERS.map((t) => r.peakMult >= t),
    k: o.k,
    calibrationShare: o.calibrationShare,
    minCalibrationSamples: o.minCalibrationSamples,
    priorStrength: o.priorStrength,
    baseRatePrior: JEFFREYS_PRIOR,
  });
  const hash = yield* modelVersionHashSteps(
    [core.k, o.calibrationShare ?? 0.3, o.minCalibrationSamples ?? 0, o.priorStrength ?? 0, minSamples],
    core,
    (r) => `${r.mint};${r.peakMult};${r.observedAt.getTime()};${vectorOf(r).join(',')}`,
  );
  const status = corpus.length >= minSamples ? ('live' as const) : ('warming' as const);
  return {
    version: `${RUNNER_NOW_MODEL_NAME}/${metric.name}@${o.ageS}:${corpus.length}:${hash}`,
    ageS: o.ageS,
    status,
    corpusSize: corpus.length,
    minSamples,
    labels: core.labels,
    score(features) {
      if (status !== 'live') return null;
      // Reaching 10x implies reaching 5x: separately calibrated tiers are kept in order.
      return nonIncreasingOdds(core.query(metric.vectorOf(features)).scores.map((s) => s.prob));
    },
  };
}

export const fitRunnerNowModel = (corpus: readonly RunnerNowRow[], o: RunnerNowModelOptions): RunnerNowModel => runSteps(fitRunnerNowModelSteps(corpus, o));
