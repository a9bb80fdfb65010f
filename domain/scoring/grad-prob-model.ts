import { DEFAULT_MIN_CALIBRATION_SAMPLES, DEFAULT_PRIOR_STRENGTH, fitCalibrator, type Calibrator } from './calibration';
import { CONFIDENCE_BANDS, confidenceBand, type ConfidenceBand } from './confidence-band';
import { ContentHash } from './content-hash';
import { splitCorpus } from './corpus-split';
import { buildKdTreeIndexSteps } from './kd-tree-index';
import { DEFAULT_K } from './knn-index';
import { FEATURE_VECTOR_KEYS, toVector, type MintFeatures } from './mint-features';
import type { ScoreAge } from './score-age';
import { mapInPieces, pauseEvery, runSteps, type Steps } from './steps';

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
};

/** Graduation rate an empty corpus predicts: the order of magnitude of the domain notes' 0.2–2.6%. */
export const DEFAULT_PRIOR_GRAD_RATE = 0.01;
/** Pseudo-launches behind that prior when estimating the corpus base rate (a 10k corpus outweighs it 100:1). */
export const BASE_RATE_PRIOR_WEIGHT = 100;
export const MODEL_NAME = 'knn-v1';

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

export type CalibrationCell = ConfidenceBand & { n: number; positives: number };

export interface GradProbModel {
  readonly version: string;
  readonly ageBucket: ScoreAge;
  readonly k: number;
  readonly corpusSize: number;
  readonly indexSize: number;
  readonly calibration: Calibrator;
  readonly cells: readonly CalibrationCell[];
  score(features: MintFeatures): GradProbScore;
}

export function fitGradProbModel(corpus: readonly CorpusRow[], opts: GradProbModelOptions): GradProbModel {
  return runSteps(fitGradProbModelSteps(corpus, opts));
}

/** The same fit, pausing between bounded pieces of work (see steps.ts) so a background refit never stalls scoring. */
export function* fitGradProbModelSteps(corpus: readonly CorpusRow[], opts: GradProbModelOptions): Steps<GradProbModel> {
  const k = opts.k ?? DEFAULT_K;
  const calibrationShare = opts.calibrationShare ?? 0.3;
  const minCalibrationSamples = opts.minCalibrationSamples ?? DEFAULT_MIN_CALIBRATION_SAMPLES;
  const priorStrength = opts.priorStrength ?? DEFAULT_PRIOR_STRENGTH;
  const priorRate = opts.priorRate ?? DEFAULT_PRIOR_GRAD_RATE;
  if (!(Number.isInteger(k) && k > 0)) throw new RangeError(`k must be a positive integer, got ${k}`);
  if (!(priorRate > 0 && priorRate < 1)) throw new RangeError(`priorRate must be inside (0, 1), got ${priorRate}`);
  for (const r of corpus) {
    // One model per age: a row observed at another age would compare curves at different moments.
    if (r.ageBucket !== opts.ageBucket) throw new RangeError(`row ${r.mint} is at age ${r.ageBucket}, model is for ${opts.ageBucket}`);
  }

  const { indexRows, calibrationRows } = splitCorpus(corpus, calibrationShare, minCalibrationSamples);
  const grads = corpus.reduce((n, r) => n + (r.graduated ? 1 : 0), 0);
  const baseRate = (grads + BASE_RATE_PRIOR_WEIGHT * priorRate) / (corpus.length + BASE_RATE_PRIOR_WEIGHT);
  yield;
  const index = yield* buildKdTreeIndexSteps(
    yield* mapInPieces(indexRows, (r) => ({ vector: toVector(r.features), label: r })),
    FEATURE_VECTOR_KEYS.length,
  );
  const neighboursOf = (f: MintFeatures) => {
    const found = index.query(toVector(f), k);
    return { found, grads: found.reduce((n, x) => n + (x.label.graduated ? 1 : 0), 0) };
  };

  // Raw scores of the later slice against the earlier index only: these rows are not in the index.
  const heldOut: { row: CorpusRow; grads: number; k: number }[] = [];
  for (const r of calibrationRows) {
    const { found, grads: g } = neighboursOf(r.features);
    heldOut.push({ row: r, grads: g, k: found.length });
    if (pauseEvery(heldOut.length, 32)) yield;
  }
  const samples = yield* mapInPieces(heldOut, (h) => ({ raw: h.grads / h.k, label: h.row.graduated }));
  const calibration = fitCalibrator(samples, { baseRate, priorStrength, minSamples: minCalibrationSamples });
  yield;
  const cells: CalibrationCell[] = CONFIDENCE_BANDS.map((b) => ({ ...b, n: 0, positives: 0 }));
  for (const h of heldOut) {
    const band = confidenceBand(calibration.apply(h.grads, h.k));
    const cell = cells.find((c) => c.lo === band.lo)!;
    cell.n++;
    if (h.row.graduated) cell.positives++;
  }

  const version = `${MODEL_NAME}@${opts.ageBucket}:${corpus.length}:${yield* versionHash(indexRows, calibrationRows, [k, calibrationShare, minCalibrationSamples, priorStrength, priorRate])}`;
  return {
    version,
    ageBucket: opts.ageBucket,
    k,
    corpusSize: corpus.length,
    indexSize: index.size,
    calibration,
    cells,
    score(features) {
      const { found, grads: g } = neighboursOf(features);
      const prob = calibration.apply(g, found.length);
      const band = confidenceBand(prob);
      const cell = cells.find((c) => c.lo === band.lo)!;
      return {
        prob,
        raw: found.length === 0 ? baseRate : g / found.length,
        k: found.length,
        grads: g,
        neighbours: found.map((n) => ({ mint: n.label.mint, graduated: n.label.graduated, distance: n.distance })),
        confidenceBand: band,
        calibrationCell: { n: cell.n, actualRate: cell.n === 0 ? null : cell.positives / cell.n },
      };
    },
  };
}

function* versionHash(indexRows: readonly CorpusRow[], calibrationRows: readonly CorpusRow[], options: readonly number[]): Steps<string> {
  const h = new ContentHash().update(options.join(','));
  for (const part of [indexRows, calibrationRows]) {
    h.update('|');
    for (const [i, r] of part.entries()) {
      h.update(`${r.mint};${r.graduated ? 1 : 0};${r.observedAt.getTime()};${r.resolvedAt.getTime()};${toVector(r.features).join(',')}`);
      if (pauseEvery(i, 2048)) yield;
    }
  }
  return h.digest();
}
