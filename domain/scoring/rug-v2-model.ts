import { JEFFREYS_PRIOR } from './knn-label-model';
import { fitLearnedKnnModelSteps, type LearnedMetric } from './learned-knn-model';
import { learnedVersionHashSteps } from './grad-prob-v2-model';
import { RUG_FEATURE_KEYS, rugVector } from './rug-features';
import { MIN_RUG_CORPUS, type RugCorpusRow, type RugModel } from './rug-model';
import { runSteps, type Steps } from './stepwise';
import type { WarmingModelOptions, WarmingStatus } from './warming-knn-model';

/**
 * rug_prob v2 (`rug-knn-v2`): rug-knn-v1's label and features (rug-model.ts, rug-features.ts) with the learned metric
 * of the knn-v2 family (learned-knn-model.ts): feature weights, k, the logistic prior and the calibration map chosen
 * at every fit by held-out loss on the later time slice, neighbours weighted by distance. Null (warming) until
 * MIN_RUG_CORPUS labelled rows exist, as v1. The version carries the metric: `rug-knn-v2@<age>:<rows>:k<k>:<hash>`.
 */
export const RUG_V2_MODEL_NAME = 'rug-knn-v2';

export interface RugV2Model extends RugModel {
  readonly metric: LearnedMetric;
}

export function* fitRugV2ModelSteps(corpus: readonly RugCorpusRow[], opts: WarmingModelOptions): Steps<RugV2Model> {
  for (const r of corpus) {
    if (r.ageBucket !== opts.ageBucket) throw new RangeError(`row ${r.mint} is at age ${r.ageBucket}, model is for ${opts.ageBucket}`);
  }
  const minSamples = opts.minSamples ?? MIN_RUG_CORPUS;
  const core = yield* fitLearnedKnnModelSteps(corpus, {
    featureKeys: RUG_FEATURE_KEYS,
    vectorOf: (r) => rugVector(r.features),
    labels: ['rugged'],
    labelsOf: (r) => [r.rugged],
    baseRatePrior: JEFFREYS_PRIOR,
    calibrationShare: opts.calibrationShare,
    minCalibrationSamples: opts.minCalibrationSamples,
    priorStrength: opts.priorStrength,
  });
  const hash = yield* learnedVersionHashSteps(
    core,
    [opts.calibrationShare ?? 0.3, opts.minCalibrationSamples ?? 0, opts.priorStrength ?? 0, minSamples],
    (r) => `${r.mint};${r.rugged ? 1 : 0};${r.observedAt.getTime()};${rugVector(r.features).join(',')}`,
  );
  const status: WarmingStatus = corpus.length >= minSamples ? 'live' : 'warming';
  return {
    name: RUG_V2_MODEL_NAME,
    version: `${RUG_V2_MODEL_NAME}@${opts.ageBucket}:${corpus.length}:k${core.metric.k}:${hash}`,
    ageBucket: opts.ageBucket,
    status,
    corpusSize: corpus.length,
    minSamples,
    labels: core.labels,
    metric: core.metric,
    score(features) {
      return status === 'live' ? core.query(rugVector(features)).scores[0]!.prob : null;
    },
  };
}

export const fitRugV2Model = (corpus: readonly RugCorpusRow[], opts: WarmingModelOptions): RugV2Model => runSteps(fitRugV2ModelSteps(corpus, opts));
