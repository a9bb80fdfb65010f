import { JEFFREYS_PRIOR } from './knn-label-model';
import { fitLearnedKnnModelSteps, type LearnedKnnModel, type LearnedMetric } from './learned-knn-model';
import { learnedVersionHashSteps } from './grad-prob-v2-model';
import type { TimedRow } from './corpus-split';
import type { Steps } from './stepwise';
import type { ContentHash } from './content-hash';
import type { WarmingModelOptions, WarmingStatus } from './warming-knn-model';

/**
 * The shape runner-knn-v2 and rug-knn-v2 share: a learned-metric model (learned-knn-model.ts) over one age's rows,
 * leaning on Jeffreys' prior, warming until `minSamples` rows exist, its version `<name>@<age>:<rows>:k<k>:<hash>`
 * with the hash over its options, the chosen metric and every row (`rowText`).
 */
export type WarmingLearnedModel<R> = {
  name: string;
  version: string;
  ageBucket: WarmingModelOptions['ageBucket'];
  status: WarmingStatus;
  corpusSize: number;
  minSamples: number;
  labels: LearnedKnnModel<R>['labels'];
  metric: LearnedMetric;
  scores: LearnedKnnModel<R>['scores'];
};

export function* fitWarmingLearnedModelSteps<R extends TimedRow>(
  rows: readonly R[],
  opts: WarmingModelOptions,
  def: {
    name: string;
    minSamples: number;
    featureKeys: readonly string[];
    vectorOf: (r: R) => readonly number[];
    vectorInto?: (r: R, out: Float64Array, offset: number) => void;
    labels: readonly string[];
    labelsOf: (r: R) => readonly boolean[];
    /** Feeds one row to the version hash (`hashRowFields`). */
    hashRow: (r: R, h: ContentHash) => void;
  },
): Steps<WarmingLearnedModel<R>> {
  const minSamples = opts.minSamples ?? def.minSamples;
  const core = yield* fitLearnedKnnModelSteps(rows, {
    featureKeys: def.featureKeys,
    vectorOf: def.vectorOf,
    vectorInto: def.vectorInto,
    labels: def.labels,
    labelsOf: def.labelsOf,
    baseRatePrior: JEFFREYS_PRIOR,
    calibrationShare: opts.calibrationShare,
    minCalibrationSamples: opts.minCalibrationSamples,
    priorStrength: opts.priorStrength,
  });
  const hash = yield* learnedVersionHashSteps(
    core,
    [opts.calibrationShare ?? 0.3, opts.minCalibrationSamples ?? 0, opts.priorStrength ?? 0, minSamples],
    def.hashRow,
  );
  return {
    name: def.name,
    version: `${def.name}@${opts.ageBucket}:${rows.length}:k${core.metric.k}:${hash}`,
    ageBucket: opts.ageBucket,
    status: rows.length >= minSamples ? 'live' : 'warming',
    corpusSize: rows.length,
    minSamples,
    labels: core.labels,
    metric: core.metric,
    scores: (v) => core.scores(v),
  };
}
