import { DEFAULT_MIN_CALIBRATION_SAMPLES, DEFAULT_PRIOR_STRENGTH, fitCalibrator, type Calibrator } from './calibration';
import { chooseCalibratorSteps, type NeighbourSample } from './calibration-choice';
import { CONFIDENCE_BANDS, confidenceBand, type ConfidenceBand } from './confidence-band';
import { ContentHash } from './content-hash';
import { holdoutBacktest, type HoldoutBacktest } from './holdout-backtest';
import { splitCorpus, type TimedRow } from './corpus-split';
import { buildKdTreeIndexSteps } from './kd-tree-index';
import { DEFAULT_K, type KnnNeighbour } from './knn-index';
import { mapInPieces, pauseEvery, type Steps } from './stepwise';

/**
 * The one k-NN probability model behind grad_prob, rug_prob, runner odds and post-graduation survival: one
 * index over the earlier rows, and per label (a row may carry several, e.g. one per runner tier) a calibrator
 * fitted on the later time slice scored against that index (corpus-split.ts says why later, calibration.ts
 * why shrunk). Scoring a vector costs one index query whatever the number of labels.
 */
export type BaseRatePrior = { rate: number; weight: number };
/** Beta(½, ½): half a positive and half a negative, for labels with no outside figure to lean on. */
export const JEFFREYS_PRIOR: BaseRatePrior = { rate: 0.5, weight: 1 };

export type KnnLabelSpec<R> = {
  dims: number;
  vectorOf: (r: R) => readonly number[];
  /** One boolean per label, in `labels` order. */
  labelsOf: (r: R) => readonly boolean[];
  labels: readonly string[];
  k?: number;
  /** Share of the latest rows held out for calibration. */
  calibrationShare?: number;
  /** Below this many held-out rows, no isotonic fit: the smoothed k-NN rate instead. */
  minCalibrationSamples?: number;
  /** Weight m of the base-rate prior in calibration, in pseudo-observations. */
  priorStrength?: number;
  /** Prior behind each label's corpus base rate, so an empty or one-sided corpus never reads 0 or 1. */
  baseRatePrior: BaseRatePrior;
};

export type CalibrationCell = ConfidenceBand & { n: number; positives: number };

export type LabelFit = {
  name: string;
  /** Corpus rows with the label set. */
  positives: number;
  baseRate: number;
  calibration: Calibrator;
  /** How the held-out slice fared per confidence band (all n = 0 without a slice). */
  cells: CalibrationCell[];
  /** The held-out slice as a walk-forward backtest of this label. */
  backtest: HoldoutBacktest;
};

export type LabelScore = {
  /** Calibrated probability, strictly inside (0, 1). */
  prob: number;
  /** Positive neighbours ÷ neighbours; the base rate when the index is empty. */
  raw: number;
  positives: number;
  confidenceBand: ConfidenceBand;
  calibrationCell: { n: number; actualRate: number | null };
};

export interface KnnLabelModel<R> {
  readonly k: number;
  readonly corpusSize: number;
  readonly indexSize: number;
  readonly indexRows: readonly R[];
  readonly calibrationRows: readonly R[];
  readonly labels: readonly LabelFit[];
  query(vector: readonly number[]): { neighbours: KnnNeighbour<R>[]; scores: LabelScore[] };
}

/** Held-out queries between two yields: a few milliseconds of work. */
const QUERIES_PER_STEP = 64;

export function* fitKnnLabelModelSteps<R extends TimedRow>(corpus: readonly R[], spec: KnnLabelSpec<R>): Steps<KnnLabelModel<R>> {
  const k = spec.k ?? DEFAULT_K;
  const calibrationShare = spec.calibrationShare ?? 0.3;
  const minCalibrationSamples = spec.minCalibrationSamples ?? DEFAULT_MIN_CALIBRATION_SAMPLES;
  const priorStrength = spec.priorStrength ?? DEFAULT_PRIOR_STRENGTH;
  const { rate: priorRate, weight: priorWeight } = spec.baseRatePrior;
  if (!(Number.isInteger(k) && k > 0)) throw new RangeError(`k must be a positive integer, got ${k}`);
  if (!(priorRate > 0 && priorRate < 1)) throw new RangeError(`prior rate must be inside (0, 1), got ${priorRate}`);
  if (!(priorWeight > 0)) throw new RangeError(`prior weight must be > 0, got ${priorWeight}`);
  const nLabels = spec.labels.length;
  const labelsOf = (r: R) => {
    const l = spec.labelsOf(r);
    if (l.length !== nLabels) throw new RangeError(`row ${r.mint}: expected ${nLabels} labels, got ${l.length}`);
    return l;
  };

  const { indexRows, calibrationRows } = splitCorpus(corpus, calibrationShare, minCalibrationSamples);
  const positives = new Array<number>(nLabels).fill(0);
  for (const r of corpus) labelsOf(r).forEach((y, j) => (positives[j]! += y ? 1 : 0));
  const baseRates = positives.map((p) => (p + priorWeight * priorRate) / (corpus.length + priorWeight));
  yield;
  // Exact k-d tree (kd-tree-index.ts): the flat scan's answer, in well under a millisecond at 1M rows.
  const index = yield* buildKdTreeIndexSteps(yield* mapInPieces(indexRows, (r) => ({ vector: spec.vectorOf(r), label: r })), spec.dims);
  yield;

  const countPositives = (found: readonly KnnNeighbour<R>[]) => {
    const c = new Array<number>(nLabels).fill(0);
    for (const n of found) labelsOf(n.label).forEach((y, j) => (c[j]! += y ? 1 : 0));
    return c;
  };

  // Raw scores of the later slice against the earlier index only: these rows are not in the index.
  const heldOut: { row: R; k: number; positives: number[] }[] = [];
  for (const [i, row] of calibrationRows.entries()) {
    const found = index.query(spec.vectorOf(row), k);
    heldOut.push({ row, k: found.length, positives: countPositives(found) });
    if (i % QUERIES_PER_STEP === QUERIES_PER_STEP - 1) yield;
  }

  const labels: LabelFit[] = [];
  for (const [j, name] of spec.labels.entries()) {
    // One label's isotonic fit at a time: each is a few hundred ms on a 300k-row slice.
    yield;
    const samples = heldOut.map((h) => ({ raw: h.positives[j]! / h.k, label: labelsOf(h.row)[j]! }));
    const { calibration, cells } = yield* fitLabelCalibrationSteps(
      heldOut.map((h) => ({ positives: h.positives[j]!, k: h.k, label: labelsOf(h.row)[j]! })),
      { baseRate: baseRates[j]!, priorStrength, minSamples: minCalibrationSamples },
    );
    labels.push({ name, positives: positives[j]!, baseRate: baseRates[j]!, calibration, cells, backtest: holdoutBacktest(samples, cells) });
  }

  return {
    k,
    corpusSize: corpus.length,
    indexSize: index.size,
    indexRows,
    calibrationRows,
    labels,
    query(vector) {
      const found = index.query(vector, k);
      const counts = countPositives(found);
      return {
        neighbours: found,
        scores: labels.map((l, j) => labelScore(l, counts[j]!, found.length)),
      };
    },
  };
}

type LabelCalibrationOptions = { baseRate: number; priorStrength: number; minSamples: number; choose?: boolean };

/**
 * A label's calibrator, fitted on the held-out slice's (positive neighbours, neighbours) against its labels, and how
 * that slice fared per confidence band. `positives` may be fractional (distance-weighted neighbours). Pauses inside
 * the choice among maps: seven fits take a few hundred milliseconds at 20,000 rows.
 */
export function* fitLabelCalibrationSteps(
  heldOut: readonly NeighbourSample[],
  opts: LabelCalibrationOptions,
): Steps<{ calibration: Calibrator; cells: CalibrationCell[] }> {
  // knn-v1 keeps its centred isotonic map; learned-metric fits choose among maps by held-out loss.
  const calibration = opts.choose
    ? (yield* chooseCalibratorSteps(heldOut, opts)).calibrator
    : fitCalibrator(
        heldOut.map((h) => ({ raw: h.k === 0 ? opts.baseRate : h.positives / h.k, label: h.label })),
        opts,
      );
  yield;
  const cells: CalibrationCell[] = CONFIDENCE_BANDS.map((b) => ({ ...b, n: 0, positives: 0 }));
  for (const h of heldOut) {
    const band = confidenceBand(calibration.apply(h.positives, h.k));
    const cell = cells.find((c) => c.lo === band.lo)!;
    cell.n++;
    if (h.label) cell.positives++;
  }
  return { calibration, cells };
}

/** One label's published score for `positives` of `k` neighbours (fractional with distance weights). */
export function labelScore(l: LabelFit, positives: number, k: number): LabelScore {
  const prob = l.calibration.apply(positives, k);
  const band = confidenceBand(prob);
  const cell = l.cells.find((c) => c.lo === band.lo)!;
  return {
    prob,
    raw: k === 0 ? l.baseRate : positives / k,
    positives,
    confidenceBand: band,
    calibrationCell: { n: cell.n, actualRate: cell.n === 0 ? null : cell.positives / cell.n },
  };
}

/**
 * A model version's hash: the options and every row of both slices, so the same corpus always gives the same
 * version and one changed row another. Yields every few thousand rows: it is ~2 s of string building at 1M.
 */
export function* modelVersionHashSteps<R>(
  options: readonly number[],
  model: Pick<KnnLabelModel<R>, 'indexRows' | 'calibrationRows'>,
  rowText: (r: R) => string,
): Steps<string> {
  return yield* hashRowsSteps(options, model, (r, h) => h.update(rowText(r)), 2048);
}

/**
 * `modelVersionHashSteps` with each row fed to the hash by `hashRow` (its fields as numbers, `ContentHash.updateNumbers`)
 * instead of as one string: at 1M rows the strings were a million short-lived objects of ~300 characters each, and
 * the collector's longest pauses of a refit.
 */
export function* hashRowsSteps<R>(
  options: readonly number[],
  model: Pick<KnnLabelModel<R>, 'indexRows' | 'calibrationRows'>,
  hashRow: (r: R, h: ContentHash) => void,
  piece = 1 << 14,
): Steps<string> {
  const h = new ContentHash().update(options.join(','));
  for (const part of [model.indexRows, model.calibrationRows]) {
    h.update('|');
    for (let i = 0; i < part.length; i++) {
      hashRow(part[i]!, h);
      if (pauseEvery(i, piece)) yield;
    }
  }
  return h.digest();
}

/**
 * The model family of a version string (`knn-v1@30:1200:…` → `knn-v1`): the algorithm and label definitions, and the
 * corpus tags a version ends with (`knn-v1@30:1200:…+backfill` → `knn-v1+backfill`), so the forward accuracy of models
 * fitted on history is never pooled with that of models fitted on the deployment's own resolutions.
 */
export function modelFamily(version: string): string {
  const at = version.indexOf('@');
  return at < 0 ? version : version.slice(0, at) + (/(\+[a-z]+)+$/.exec(version.slice(at))?.[0] ?? '');
}
