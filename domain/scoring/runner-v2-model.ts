import { JEFFREYS_PRIOR } from './knn-label-model';
import { LAUNCH_FEATURE_KEYS, launchVector } from './launch-features';
import { fitLearnedKnnModelSteps, type LearnedMetric } from './learned-knn-model';
import { hasLaunchFeatures, launchFeaturesOf, learnedVersionHashSteps } from './grad-prob-v2-model';
import { MIN_RUNNER_CORPUS, nonIncreasingOdds, RUNNER_TIERS, tierKey, type RunnerCorpusRow, type RunnerModel, type RunnerModelOptions } from './runner-model';
import { runSteps, type Steps } from './stepwise';
import type { WarmingStatus } from './warming-knn-model';

/**
 * runner odds v2 (`runner-knn-v2`): runner-knn-v1's labels (peak after the call ÷ the price at the call, per tier)
 * on the launch features with the learned metric (learned-knn-model.ts): one metric for all tiers, chosen by the
 * held-out log loss averaged over the tiers. Odds are non-increasing across tiers as in v1. Generic over the row:
 * any corpus of `{ features, peakMult, observedAt }` rows at one age can use it.
 */
export const RUNNER_V2_MODEL_NAME = 'runner-knn-v2';

export interface RunnerV2Model extends RunnerModel {
  readonly metric: LearnedMetric;
}

export const fitRunnerV2Model = (corpus: readonly RunnerCorpusRow[], opts: RunnerModelOptions): RunnerV2Model => runSteps(fitRunnerV2ModelSteps(corpus, opts));

export function* fitRunnerV2ModelSteps(corpus: readonly RunnerCorpusRow[], opts: RunnerModelOptions): Steps<RunnerV2Model> {
  for (const r of corpus) {
    if (r.ageBucket !== opts.ageBucket) throw new RangeError(`row ${r.mint} is at age ${r.ageBucket}, model is for ${opts.ageBucket}`);
    if (!(Number.isFinite(r.peakMult) && r.peakMult > 0)) throw new RangeError(`row ${r.mint}: peak multiple must be a positive number, got ${r.peakMult}`);
  }
  const rows = corpus.filter(hasLaunchFeatures);
  const minSamples = opts.minSamples ?? MIN_RUNNER_CORPUS;
  const core = yield* fitLearnedKnnModelSteps(rows, {
    featureKeys: LAUNCH_FEATURE_KEYS,
    vectorOf: (r) => launchVector(launchFeaturesOf(r.features)),
    labels: RUNNER_TIERS.map(tierKey),
    labelsOf: (r) => RUNNER_TIERS.map((t) => r.peakMult >= t),
    baseRatePrior: JEFFREYS_PRIOR,
    calibrationShare: opts.calibrationShare,
    minCalibrationSamples: opts.minCalibrationSamples,
    priorStrength: opts.priorStrength,
  });
  const hash = yield* learnedVersionHashSteps(
    core,
    [opts.calibrationShare ?? 0.3, opts.minCalibrationSamples ?? 0, opts.priorStrength ?? 0, minSamples],
    (r) => `${r.mint};${r.peakMult};${r.observedAt.getTime()};${launchVector(launchFeaturesOf(r.features)).join(',')}`,
  );
  const status: WarmingStatus = rows.length >= minSamples ? 'live' : 'warming';
  return {
    name: RUNNER_V2_MODEL_NAME,
    version: `${RUNNER_V2_MODEL_NAME}@${opts.ageBucket}:${rows.length}:k${core.metric.k}:${hash}`,
    ageBucket: opts.ageBucket,
    status,
    corpusSize: rows.length,
    minSamples,
    labels: core.labels,
    metric: core.metric,
    score(features) {
      if (status !== 'live') return null;
      return nonIncreasingOdds(core.query(launchVector(launchFeaturesOf(features))).scores.map((x) => x.prob));
    },
  };
}
