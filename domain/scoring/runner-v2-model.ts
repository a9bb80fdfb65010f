import { LAUNCH_FEATURE_KEYS, launchVector } from './launch-features';
import type { LearnedMetric } from './learned-knn-model';
import { hashRowFields, hasLaunchFeatures, launchFeaturesOf } from './grad-prob-v2-model';
import { MIN_RUNNER_CORPUS, nonIncreasingOdds, RUNNER_TIERS, tierKey, type RunnerCorpusRow, type RunnerModel, type RunnerModelOptions } from './runner-model';
import { writeFeatures } from './row-matrix';
import { runSteps, type Steps } from './stepwise';
import { fitWarmingLearnedModelSteps } from './warming-learned-model';

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
  const { scores, ...model } = yield* fitWarmingLearnedModelSteps(rows, opts, {
    name: RUNNER_V2_MODEL_NAME,
    minSamples: MIN_RUNNER_CORPUS,
    featureKeys: LAUNCH_FEATURE_KEYS,
    vectorOf: (r) => launchVector(launchFeaturesOf(r.features)),
    vectorInto: (r, out, offset) => writeFeatures(launchFeaturesOf(r.features), LAUNCH_FEATURE_KEYS, out, offset),
    labels: RUNNER_TIERS.map(tierKey),
    labelsOf: (r) => RUNNER_TIERS.map((t) => r.peakMult >= t),
    hashRow: (r, h) => hashRowFields(h, r.mint, launchFeaturesOf(r.features), LAUNCH_FEATURE_KEYS, r.peakMult, r.observedAt.getTime()),
  });
  return {
    ...model,
    score(features) {
      if (model.status !== 'live') return null;
      return nonIncreasingOdds(scores(launchVector(launchFeaturesOf(features))).map((x) => x.prob));
    },
  };
}
