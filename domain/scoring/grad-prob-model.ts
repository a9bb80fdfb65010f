import type { HoldoutBacktest } from './holdout-backtest';
import { DEFAULT_MIN_CALIBRATION_SAMPLES, DEFAULT_PRIOR_STRENGTH, type Calibrator } from './calibration';
import type { ConfidenceBand } from './confidence-band';
import { DEFAULT_K } from './knn-index';
import { fitKnnLabelModelSteps, modelVersionHashSteps, type CalibrationCell } from './knn-label-model';
import { FEATURE_VECTOR_KEYS, toVector, type MintFeatures } from './mint-features';
import type { ScoreAge } from './score-age';
import { runSteps, type Steps } from './stepwise';

export { SCORE_AGES, scoreAgeBucket, type ScoreAge } from './score-age';

/**
 * grad_prob v1: k-NN over resolved mints observed at the same age (the six published features, z-scored,
 * Euclidean, k = 50), calibrated on a later time slice than the index (see corpus-split, calibration).
 * Fitting is pure and deterministic: the same corpus and options give the same model and version.
 */
/**
 * One resolved mint observed at one age. Build the corpus only from mints whose label is final (graduated,
 * or past the 24 h horizon): adding the recent graduates without their still-open contemporaries inflates
 * the base rate and the latest slice.
 */
export type CorpusRow = {
  mint: string;
  ageBucket: ScoreAge;
  features: MintFeatures;
  graduated: boolean;
  /** When the features were taken (creation + age): the moment a live prediction would have been made. */
  observedAt: Date;
  resolvedAt: Date;
};

export type GradProbModelOptions = {
  ageBucket: ScoreAge;
  k?: number;
  /** Share of the latest rows held out for calibration. */
  calibrationShare?: number;
  /** Below this many held-out rows, no isotonic fit: the smoothed k-NN rate instead. */
  minCalibrationSamples?: number;
  /** Weight m of the base-rate prior in calibration, in pseudo-observations. */
  priorStrength?: number;
  /** The graduation rate assumed before any evidence; what an empty corpus predicts. */
  priorRate?: number;
  /** The name its versions start with (default MODEL_NAME): a challenger of other options is another model version. */
  modelName?: string;
};

/** Graduation rate an empty corpus predicts: the order of magnitude of the domain notes' 0.2–2.6%. */
export const DEFAULT_PRIOR_GRAD_RATE = 0.01;
/** Pseudo-launches behind that prior when estimating the corpus base rate (a 10k corpus outweighs it 100:1). */
export const BASE_RATE_PRIOR_WEIGHT = 100;
export const MODEL_NAME = 'knn-v1';
/**
 * Below this corpus grad_prob still publishes (the shrunk neighbour rate; the prior on an empty corpus), and
 * /api/predictor/health reports it as warming.
 */
export const MIN_GRAD_CORPUS = 200;

export type Neighbour = { mint: string; graduated: boolean; distance: number };

export type GradProbScore = {
  /** Calibrated probability, strictly inside (0, 1). */
  prob: number;
  /** Graduated neighbours ÷ neighbours; the base rate when the index is empty. */
  raw: number;
  /** Neighbours found: min(k, index size). */
  k: number;
  grads: number;
  neighbours: Neighbour[];
  confidenceBand: ConfidenceBand;
  /** How the held-out calibration slice fared in this band (n = 0, rate null without a slice). */
  calibrationCell: { n: number; actualRate: number | null };
};

export type { CalibrationCell } from './knn-label-model';

export interface GradProbModel {
  readonly version: string;
  readonly ageBucket: ScoreAge;
  readonly k: number;
  readonly corpusSize: number;
  readonly indexSize: number;
  readonly calibration: Calibrator;
  readonly cells: readonly CalibrationCell[];
  /** The held-out newest slice scored against the earlier index: a walk-forward backtest of this fit. */
  readonly backtest: HoldoutBacktest;
  /** Whether `score` can answer this snapshot: a family may need features older snapshots do not carry. */
  canScore(features: MintFeatures): boolean;
  score(features: MintFeatures): GradProbScore;
}

export function fitGradProbModel(corpus: readonly CorpusRow[], opts: GradProbModelOptions): GradProbModel {
  return runSteps(fitGradProbModelSteps(corpus, opts));
}

/** The same fit, yielding between chunks of work (see stepwise.ts). */
export function* fitGradProbModelSteps(corpus: readonly CorpusRow[], opts: GradProbModelOptions): Steps<GradProbModel> {
  const k = opts.k ?? DEFAULT_K;
  const calibrationShare = opts.calibrationShare ?? 0.3;
  const minCalibrationSamples = opts.minCalibrationSamples ?? DEFAULT_MIN_CALIBRATION_SAMPLES;
  const priorStrength = opts.priorStrength ?? DEFAULT_PRIOR_STRENGTH;
  const priorRate = opts.priorRate ?? DEFAULT_PRIOR_GRAD_RATE;
  for (const r of corpus) {
    // One model per age: a row observed at another age would compare curves at different moments.
    if (r.ageBucket !== opts.ageBucket) throw new RangeError(`row ${r.mint} is at age ${r.ageBucket}, model is for ${opts.ageBucket}`);
  }
  const core = yield* fitKnnLabelModelSteps(corpus, {
    dims: FEATURE_VECTOR_KEYS.length,
    vectorOf: (r) => toVector(r.features),
    labelsOf: (r) => [r.graduated],
    labels: ['graduated'],
    k,
    calibrationShare,
    minCalibrationSamples,
    priorStrength,
    baseRatePrior: { rate: priorRate, weight: BASE_RATE_PRIOR_WEIGHT },
  });
  const fit = core.labels[0]!;
  const hash = yield* modelVersionHashSteps(
    [k, calibrationShare, minCalibrationSamples, priorStrength, priorRate],
    core,
    (r) => `${r.mint};${r.graduated ? 1 : 0};${r.observedAt.getTime()};${r.resolvedAt.getTime()};${toVector(r.features).join(',')}`,
  );
  return {
    version: `${opts.modelName ?? MODEL_NAME}@${opts.ageBucket}:${corpus.length}:${hash}`,
    ageBucket: opts.ageBucket,
    k,
    corpusSize: corpus.length,
    indexSize: core.indexSize,
    calibration: fit.calibration,
    cells: fit.cells,
    backtest: fit.backtest,
    canScore: () => true,
    score(features) {
      const { neighbours, scores } = core.query(toVector(features));
      const s = scores[0]!;
      return {
        prob: s.prob,
        raw: s.raw,
        k: neighbours.length,
        grads: s.positives,
        neighbours: neighbours.map((n) => ({ mint: n.label.mint, graduated: n.label.graduated, distance: n.distance })),
        confidenceBand: s.confidenceBand,
        calibrationCell: s.calibrationCell,
      };
    },
  };
}
