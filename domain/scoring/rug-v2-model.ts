import { hashRowFields } from './grad-prob-v2-model';
import type { LearnedMetric } from './learned-knn-model';
import { RUG_FEATURE_KEYS, rugVector } from './rug-features';
import { MIN_RUG_CORPUS, type RugCorpusRow, type RugModel } from './rug-model';
import { writeFeatures } from './row-matrix';
import { runSteps, type Steps } from './stepwise';
import type { WarmingModelOptions } from './warming-knn-model';
import { fitWarmingLearnedModelSteps } from './warming-learned-model';

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
  const { scores, ...model } = yield* fitWarmingLearnedModelSteps(corpus, opts, {
    name: RUG_V2_MODEL_NAME,
    minSamples: MIN_RUG_CORPUS,
    featureKeys: RUG_FEATURE_KEYS,
    vectorOf: (r) => rugVector(r.features),
    vectorInto: (r, out, offset) => writeFeatures(r.features, RUG_FEATURE_KEYS, out, offset),
    labels: ['rugged'],
    labelsOf: (r) => [r.rugged],
    hashRow: (r, h) => hashRowFields(h, r.mint, r.features, RUG_FEATURE_KEYS, r.rugged ? 1 : 0, r.observedAt.getTime()),
  });
  return {
    ...model,
    score(features) {
      return model.status === 'live' ? scores(rugVector(features))[0]!.prob : null;
    },
  };
}

export const fitRugV2Model = (corpus: readonly RugCorpusRow[], opts: WarmingModelOptions): RugV2Model => runSteps(fitRugV2ModelSteps(corpus, opts));
