import { BASE_RATE_PRIOR_WEIGHT, DEFAULT_PRIOR_GRAD_RATE, type CorpusRow, type GradProbModel, type GradProbModelOptions } from './grad-prob-model';
import type { ContentHash } from './content-hash';
import { hashRowsSteps } from './knn-label-model';
import { LAUNCH_FEATURE_KEYS, launchVector, type LaunchFeatures } from './launch-features';
import { fitLearnedKnnModelSteps, type LearnedKnnModel, type LearnedKnnSpec, type LearnedMetric } from './learned-knn-model';
import type { Scaling } from './knn-index';
import type { MintFeatures } from './mint-features';
import { writeFeatures } from './row-matrix';
import { pauseEvery, runSteps, type Steps } from './stepwise';

/**
 * grad_prob v2 (`knn-v2`): k-NN over resolved mints at the same age on the point-in-time launch features
 * (launch-features.ts), with the metric (feature weights, k) learned at every fit by held-out log loss and
 * distance-weighted neighbours (learned-knn-model.ts), calibrated like knn-v1. Rows logged before the launch
 * features existed carry none and are left out of its corpus (`corpusSize` counts the rows it used).
 * The version carries the metric: `knn-v2@<age>:<rows>:k<k>:<hash>`, the hash covering the weights too.
 */
export const MODEL_V2_NAME = 'knn-v2';

export interface GradProbV2Model extends GradProbModel {
  readonly metric: LearnedMetric;
  /** Each launch feature's mean and std over the index rows (LAUNCH_FEATURE_KEYS order): the scale of its distance. */
  readonly scaling: Scaling;
}

export type GradProbV2Options = GradProbModelOptions &
  Pick<LearnedKnnSpec<CorpusRow>, 'kGrid' | 'logisticPriorGrid' | 'logisticAxisGrid' | 'exclude' | 'searchIndexRows' | 'searchHeldOutRows'>;

export const launchFeaturesOf = (f: MintFeatures): LaunchFeatures => {
  if (!f.launch) throw new RangeError('knn-v2 needs the launch features in the snapshot');
  return f.launch;
};

/**
 * A learned-metric model's version hash: its options, the chosen k, prior, logistic axis and weights (in feature order), and every row
 * of both slices (`hashRow`, usually `hashRowFields`).
 */
export function learnedVersionHashSteps<R>(
  core: Pick<LearnedKnnModel<R>, 'metric' | 'indexRows' | 'calibrationRows'>,
  options: readonly number[],
  hashRow: (r: R, h: ContentHash) => void,
): Steps<string> {
  return hashRowsSteps(
    [core.metric.k, core.metric.logisticPriorWeight ?? 0, core.metric.logisticAxisWeight ?? 0, ...options, ...Object.values(core.metric.weights)],
    core,
    hashRow,
  );
}

let rowFields = new Float64Array(32);

/**
 * One row into a version hash: its address, then up to three scalars (label, times) and its features in `keys`
 * order, as numbers written into one reused array: nothing is allocated per row.
 */
export function hashRowFields<K extends string>(
  h: ContentHash,
  mint: string,
  features: Readonly<Record<K, number>>,
  keys: readonly K[],
  s0: number,
  s1: number,
  s2?: number,
): void {
  const head = s2 === undefined ? 2 : 3;
  if (rowFields.length < head + keys.length) rowFields = new Float64Array(head + keys.length);
  rowFields[0] = s0;
  rowFields[1] = s1;
  if (s2 !== undefined) rowFields[2] = s2;
  writeFeatures(features, keys, rowFields, head);
  h.update(mint).updateNumbers(rowFields, head + keys.length);
}

/** Rows knn-v2 can learn from: those whose snapshot carries the launch features. */
export const hasLaunchFeatures = <R extends { features: MintFeatures }>(r: R): boolean => r.features.launch !== undefined;

export function fitGradProbV2Model(corpus: readonly CorpusRow[], opts: GradProbV2Options): GradProbV2Model {
  return runSteps(fitGradProbV2ModelSteps(corpus, opts));
}

export function* fitGradProbV2ModelSteps(corpus: readonly CorpusRow[], opts: GradProbV2Options): Steps<GradProbV2Model> {
  const rows: CorpusRow[] = [];
  for (let i = 0; i < corpus.length; i++) {
    const r = corpus[i]!;
    if (r.ageBucket !== opts.ageBucket) throw new RangeError(`row ${r.mint} is at age ${r.ageBucket}, model is for ${opts.ageBucket}`);
    if (hasLaunchFeatures(r)) rows.push(r);
    if (pauseEvery(i, 1 << 14)) yield;
  }
  const priorRate = opts.priorRate ?? DEFAULT_PRIOR_GRAD_RATE;
  const core = yield* fitLearnedKnnModelSteps(rows, {
    featureKeys: LAUNCH_FEATURE_KEYS,
    vectorOf: (r) => launchVector(launchFeaturesOf(r.features)),
    vectorInto: (r, out, offset) => writeFeatures(launchFeaturesOf(r.features), LAUNCH_FEATURE_KEYS, out, offset),
    labels: ['graduated'],
    labelsOf: (r) => [r.graduated],
    baseRatePrior: { rate: priorRate, weight: BASE_RATE_PRIOR_WEIGHT },
    calibrationShare: opts.calibrationShare,
    minCalibrationSamples: opts.minCalibrationSamples,
    priorStrength: opts.priorStrength,
    kGrid: opts.kGrid,
    logisticPriorGrid: opts.logisticPriorGrid,
    logisticAxisGrid: opts.logisticAxisGrid,
    exclude: opts.exclude,
    searchIndexRows: opts.searchIndexRows,
    searchHeldOutRows: opts.searchHeldOutRows,
  });
  const fit = core.labels[0]!;
  const hash = yield* learnedVersionHashSteps(
    core,
    [opts.calibrationShare ?? 0.3, opts.minCalibrationSamples ?? 0, opts.priorStrength ?? 0, priorRate],
    (r, h) => hashRowFields(h, r.mint, launchFeaturesOf(r.features), LAUNCH_FEATURE_KEYS, r.graduated ? 1 : 0, r.observedAt.getTime(), r.resolvedAt.getTime()),
  );
  return {
    version: `${MODEL_V2_NAME}@${opts.ageBucket}:${rows.length}:k${core.metric.k}:${hash}`,
    ageBucket: opts.ageBucket,
    k: core.metric.k,
    corpusSize: rows.length,
    indexSize: core.indexSize,
    calibration: fit.calibration,
    cells: fit.cells,
    backtest: fit.backtest,
    metric: core.metric,
    scaling: core.scaling,
    // The launch features come with a launch context; a snapshot scored without one has none.
    canScore: (features) => features.launch !== undefined,
    score(features) {
      let grads = 0;
      const { neighbours, scores } = core.queryAs(launchVector(launchFeaturesOf(features)), (r, distance) => {
        if (r.graduated) grads++;
        return { mint: r.mint, graduated: r.graduated, distance };
      });
      const s = scores[0]!;
      return {
        prob: s.prob,
        raw: s.raw,
        k: neighbours.length,
        grads,
        neighbours,
        confidenceBand: s.confidenceBand,
        calibrationCell: s.calibrationCell,
      };
    },
  };
}
