import { fitKnnLabelModelSteps, JEFFREYS_PRIOR, modelVersionHashSteps, type LabelFit, type LabelScore } from './knn-label-model';
import type { ScoreAge } from './score-age';
import type { Steps } from './stepwise';

/**
 * The shape rug_prob, runner odds and post-graduation survival share: a k-NN label model at one age that
 * publishes nothing (null, status `warming`) until its corpus holds `minSamples` labelled rows. Unlike
 * grad_prob, these have no outside base rate worth publishing as a prior, so an empty corpus says "unknown",
 * not a number. Base rates lean on Jeffreys' prior only, so a one-sided corpus never reads exactly 0 or 1.
 */
export type WarmingStatus = 'warming' | 'live';

export type AgedRow = { mint: string; ageBucket: ScoreAge; observedAt: Date };

export type WarmingModelSpec<R extends AgedRow> = {
  name: string;
  ageBucket: ScoreAge;
  minSamples: number;
  dims: number;
  vectorOf: (r: R) => readonly number[];
  labels: readonly string[];
  labelsOf: (r: R) => readonly boolean[];
  /** What of a row enters the version hash (its label values and vector at least). */
  rowText: (r: R) => string;
  k?: number;
  calibrationShare?: number;
  minCalibrationSamples?: number;
  priorStrength?: number;
};

export interface WarmingKnnModel {
  readonly name: string;
  readonly version: string;
  readonly ageBucket: ScoreAge;
  readonly status: WarmingStatus;
  readonly corpusSize: number;
  readonly minSamples: number;
  readonly labels: readonly LabelFit[];
  /** One score per label; null while warming. */
  score(vector: readonly number[]): LabelScore[] | null;
}

export function* fitWarmingKnnModelSteps<R extends AgedRow>(corpus: readonly R[], spec: WarmingModelSpec<R>): Steps<WarmingKnnModel> {
  if (!(Number.isInteger(spec.minSamples) && spec.minSamples >= 1)) throw new RangeError(`minSamples must be a positive integer, got ${spec.minSamples}`);
  for (const r of corpus) {
    if (r.ageBucket !== spec.ageBucket) throw new RangeError(`row ${r.mint} is at age ${r.ageBucket}, model is for ${spec.ageBucket}`);
  }
  const core = yield* fitKnnLabelModelSteps(corpus, { ...spec, baseRatePrior: JEFFREYS_PRIOR });
  const hash = yield* modelVersionHashSteps(
    [core.k, spec.calibrationShare ?? 0.3, spec.minCalibrationSamples ?? 0, spec.priorStrength ?? 0, spec.minSamples],
    core,
    spec.rowText,
  );
  const status: WarmingStatus = corpus.length >= spec.minSamples ? 'live' : 'warming';
  return {
    name: spec.name,
    version: `${spec.name}@${spec.ageBucket}:${corpus.length}:${hash}`,
    ageBucket: spec.ageBucket,
    status,
    corpusSize: corpus.length,
    minSamples: spec.minSamples,
    labels: core.labels,
    score(vector) {
      return status === 'live' ? core.query(vector).scores : null;
    },
  };
}

/** Options every warming model takes from its caller (the rest is the model's definition). */
export type WarmingModelOptions = {
  ageBucket: ScoreAge;
  minSamples?: number;
  k?: number;
  calibrationShare?: number;
  minCalibrationSamples?: number;
  priorStrength?: number;
};

export interface BinaryKnnModel<F> extends Omit<WarmingKnnModel, 'score'> {
  /** Calibrated probability strictly inside (0, 1); null while warming. */
  score(features: F): number | null;
}

/** A one-label warming model over rows `{ features, observedAt }` whose label is `labelOf(row)`. */
export function* fitBinaryKnnModelSteps<F, R extends AgedRow & { features: F }>(
  corpus: readonly R[],
  opts: WarmingModelOptions,
  def: { name: string; minSamples: number; featureKeys: readonly string[]; vector: (f: F) => number[]; label: string; labelOf: (r: R) => boolean },
): Steps<BinaryKnnModel<F>> {
  const model = yield* fitWarmingKnnModelSteps(corpus, {
    ...opts,
    name: def.name,
    minSamples: opts.minSamples ?? def.minSamples,
    dims: def.featureKeys.length,
    vectorOf: (r) => def.vector(r.features),
    labels: [def.label],
    labelsOf: (r) => [def.labelOf(r)],
    rowText: (r) => `${r.mint};${def.labelOf(r) ? 1 : 0};${r.observedAt.getTime()};${def.vector(r.features).join(',')}`,
  });
  return { ...model, score: (f) => model.score(def.vector(f))?.[0]?.prob ?? null };
}
