import { holdoutBacktest } from './holdout-backtest';
import { DEFAULT_MIN_CALIBRATION_SAMPLES, DEFAULT_PRIOR_STRENGTH } from './calibration';
import { splitCorpusSteps, type TimedRow } from './corpus-split';
import { buildKdTreeIndexOfSteps, buildKdTreeIndexOnColumnsSteps, type KdTreeIndex, type NearestRows } from './kd-tree-index';
import { DEFAULT_K, fitScalingOfSteps, type KnnNeighbour, type Scaling } from './knn-index';
import { fitLabelCalibrationSteps, labelScore, type BaseRatePrior, type LabelFit, type LabelScore } from './knn-label-model';
import { crossFittedLogOddsSteps } from './cross-fit';
import { fitLogisticSteps, type LogisticModel } from './logistic-regression';
import { pointLogLoss } from './holdout-metrics';
import { chooseByOneSe, clearsOneSe } from './one-se-rule';
import { rowMatrixSteps } from './row-matrix';
import { pauseEvery, type Steps } from './stepwise';

/**
 * The learned metric behind the knn-v2 family: still k-NN over resolved rows at the same age, but at every refit
 * the feature weights and k are chosen by held-out log loss on the same time split calibration uses (the index is
 * the earlier rows, the held-out slice the later ones: corpus-split.ts), and neighbours vote by distance, so a
 * score moves continuously instead of in steps of 1/k.
 *
 * - Candidate weights (weight 0 leaves a feature out of the distance): every feature equal; and, from an
 *   L2-regularised logistic regression fitted on the index rows only, each feature's mean |coefficient| on the
 *   z-scored scale, as is, square-rooted, and cut to the strongest 4 and 8. Each is scored by the held-out log
 *   loss of its shrunk distance-weighted neighbour rate (at its best k) and chosen by the one-SE rule below; then
 *   k is chosen the same way against the whole index. No weight or k is set by hand.
 * - Selection (one-standard-error rule, one-se-rule.ts): candidates are walked in a fixed order of complexity and a
 *   later one replaces the incumbent only when its weighted mean held-out loss is lower by more than one standard
 *   error of the paired per-row difference. With 20–60 graduates in the held-out sample, the lowest of ~50 losses is
 *   mostly the luckiest. The order is by how far the metric departs from uniform, i.e. how much of it the logistic
 *   fit on the index rows decided: uniform < logistic-sqrt (the learned weights shrunk toward equal) < logistic
 *   < logistic-top8 < logistic-top4 (the fit also decides which features are dropped, more of them in top4); then
 *   the logistic axis on top of the plain winner by increasing weight, then the axis alone (the features dropped
 *   altogether). For k and β: β = 0 (no logistic prior) before any prior, smaller β before larger, and at each β
 *   the larger, smoother k first.
 * - Logistic axis (a one-dimensional discriminative projection, metric learning in the NCA/LDA spirit): the same
 *   regression's log-odds as one more coordinate, weighted LOGISTIC_AXIS_GRID times the winning weights' size, or
 *   alone. When it dominates, the k nearest rows are those with the most similar logistic score and their vote is
 *   a local, non-parametric calibration of it; when the features' local structure carries more, the held-out loss
 *   keeps them. Tried after the plain candidates, it wins only by more than one SE. The index rows the
  regression was fitted on get cross-fitted (out-of-fold) log-odds as their coordinate, a query the full fit's:
  in-sample log-odds would put the index's positives higher than any new positive lands (cross-fit.ts).
 * - Neighbour i of k at distance dᵢ votes wᵢ ∝ 1 / (dᵢ + d̄), d̄ the mean of the k distances, normalised to sum to
 *   k: the nearest counts at most a few times the farthest, and scaling every distance scales nothing.
 * - Logistic prior (chosen only when held-out loss says so): the vote may be shrunk toward the L2 logistic
 *   regression's probability for the row (the same fit as above, on the index rows, features not excluded),
 *   worth β·k neighbours: score = (weighted positives + β·k·p_logistic) / (k + β·k), β from LOGISTIC_PRIOR_GRID, or
 *   no such prior (β = 0). It is still a k-NN score: the neighbours' vote, with the in-family logistic as its
 *   prior mean instead of the flat base rate, so two mints with the same neighbours differ by their own features.
 *   k and β are chosen together.
 * - Calibration is chosen per fit among a Platt map, centred isotonic and isotonic steps by cross-fitted log loss
 *   on the held-out slice (calibration-choice.ts).
 * - With no held-out slice (a small corpus), the metric is uniform with k = DEFAULT_K and no loss is reported.
 *
 * Every choice is made on a stratified, weighted sample of `searchHeldOutRows` held-out rows (`stratify`: rare
 * positives kept, the loss still estimating the whole slice's); the weights and axis against the newest
 * `searchIndexRows` index rows, k and β against the whole index. The calibration slice (up to `maxCalibrationRows`,
 * evenly thinned) is then queried once at the chosen k. Querying 20k held-out rows at k = 100 against the whole
 * index made a refit at 200k rows cost ~50 s CPU per age; this keeps it near 10 s.
 */
export type LearnedMetric = {
  /** One weight per feature key, on the index's z-scored scale; 0 = left out of the distance. */
  weights: Record<string, number>;
  k: number;
  /** Mean over labels of the held-out log loss of the shrunk distance-weighted neighbour rate; null without a slice. */
  heldOutLogLoss: number | null;
  heldOutRows: number;
  /**
   * The candidate the weights came from (`uniform`, `logistic`, `logistic-sqrt`, `logistic-top4`, `logistic-top8`),
   * `<one of those>+logistic-axis` when the logistic axis was added to it, or `logistic-axis` for the axis alone.
   */
  candidate: string;
  /**
   * β of the logistic prior the neighbour vote is shrunk toward, worth β·k neighbours; 0 when the held-out loss
   * preferred the plain vote (shrunk toward the base rate only, by the calibration's prior). Absent on fits stored
   * before the prior existed (none had one).
   */
  logisticPriorWeight?: number;
  /**
   * Weight of the logistic axis (the in-family logistic regression's log-odds as one more coordinate of the distance)
   * relative to the root-sum-square of the feature weights; 0 without the axis. With every feature weight 0 the
   * distance is that axis alone (candidate `logistic-axis`). Absent on fits stored before the axis existed.
   */
  logisticAxisWeight?: number;
};

export type LearnedKnnSpec<R> = {
  featureKeys: readonly string[];
  vectorOf: (r: R) => readonly number[];
  /** `vectorOf` written into `out` from `offset` instead of returned (optional: the index rows' pass allocates nothing). */
  vectorInto?: (r: R, out: Float64Array, offset: number) => void;
  labels: readonly string[];
  labelsOf: (r: R) => readonly boolean[];
  baseRatePrior: BaseRatePrior;
  calibrationShare?: number;
  minCalibrationSamples?: number;
  priorStrength?: number;
  kGrid?: readonly number[];
  /** β candidates of the logistic prior (default LOGISTIC_PRIOR_GRID; empty: the plain vote only). */
  logisticPriorGrid?: readonly number[];
  /** Weights of the logistic axis tried with the winning feature weights (default LOGISTIC_AXIS_GRID; empty: no axis at all). */
  logisticAxisGrid?: readonly number[];
  /** Features no candidate may use (the backtest's ablation). */
  exclude?: readonly string[];
  searchIndexRows?: number;
  searchHeldOutRows?: number;
  maxCalibrationRows?: number;
};

export interface LearnedKnnModel<R> {
  readonly corpusSize: number;
  readonly indexSize: number;
  readonly indexRows: readonly R[];
  readonly calibrationRows: readonly R[];
  readonly labels: readonly LabelFit[];
  readonly metric: LearnedMetric;
  /** Each feature's mean and std over the index rows: the scale the metric's weights apply to. */
  readonly scaling: Scaling;
  query(vector: readonly number[]): { neighbours: KnnNeighbour<R>[]; scores: LabelScore[] };
  /** `query` with each neighbour built by `neighbour` (one object per neighbour, nothing else per neighbour). */
  queryAs<N>(vector: readonly number[], neighbour: (row: R, distance: number) => N): { neighbours: N[]; scores: LabelScore[] };
  /** The scores alone: no object per neighbour. */
  scores(vector: readonly number[]): LabelScore[];
}

export const DEFAULT_K_GRID = [10, 25, 50, 100] as const;
/**
 * β candidates of the logistic prior (learned-knn-model.ts header): at most two neighbourhoods' worth, so the k
 * nearest rows always carry at least a third of the score.
 */
export const LOGISTIC_PRIOR_GRID = [0.25, 0.5, 1, 2] as const;
export const SEARCH_INDEX_ROWS = 20_000;
export const SEARCH_HELD_OUT_ROWS = 1_000;
export const MAX_CALIBRATION_ROWS = 5_000;

/**
 * Weights of the logistic axis tried on top of the winning feature weights, relative to the root-sum-square of those
 * weights (so 1 makes the axis count as much as all the features together); the axis alone is tried too.
 */
export const LOGISTIC_AXIS_GRID = [0.5, 1, 2, 4] as const;

/** `axis`: the logistic axis' weight relative to the features' (0: no axis; with every `w` at 0, the axis alone). */
type Candidate = { name: string; w: readonly number[]; axis: number };
/**
 * The in-family logistic log-odds (mean over labels) as one more coordinate: `of` for a query (the full fit),
 * `indexed` for the search rows (out of fold), z-scored by the latter's mean and std.
 */
type Axis = { of: (v: ArrayLike<number>) => number; indexed: Float64Array; mean: number; std: number };
type Weighted<R> = { index: KdTreeIndex<R>; project: (v: ArrayLike<number>) => number[] };

export function* fitLearnedKnnModelSteps<R extends TimedRow>(corpus: readonly R[], spec: LearnedKnnSpec<R>): Steps<LearnedKnnModel<R>> {
  const d = spec.featureKeys.length;
  const calibrationShare = spec.calibrationShare ?? 0.3;
  const minSamples = spec.minCalibrationSamples ?? DEFAULT_MIN_CALIBRATION_SAMPLES;
  const m = spec.priorStrength ?? DEFAULT_PRIOR_STRENGTH;
  const kGrid = [...(spec.kGrid ?? DEFAULT_K_GRID)].sort((a, b) => a - b);
  const nLabels = spec.labels.length;
  const labelsOf = (r: R) => {
    const l = spec.labelsOf(r);
    if (l.length !== nLabels) throw new RangeError(`row ${r.mint}: expected ${nLabels} labels, got ${l.length}`);
    return l;
  };
  const split = yield* splitCorpusSteps(corpus, calibrationShare, minSamples);
  const indexRows = split.indexRows;
  // Held-out rows scored for k and calibration, evenly thinned past `maxCalibrationRows`: in 20+ dimensions every
  // query costs about a scan of the index, and isotonic calibration is as good on 20k rows as on 60k.
  const calibrationRows = thin(split.calibrationRows, spec.maxCalibrationRows ?? MAX_CALIBRATION_ROWS);
  const { rate: priorRate, weight: priorWeight } = spec.baseRatePrior;
  const positives = new Array<number>(nLabels).fill(0);
  for (let i = 0; i < corpus.length; i++) {
    labelsOf(corpus[i]!).forEach((y, j) => (positives[j]! += y ? 1 : 0));
    if (pauseEvery(i, ROW_PIECE)) yield;
  }
  const baseRates = positives.map((p) => (p + priorWeight * priorRate) / (corpus.length + priorWeight));
  // The index rows' vectors in one typed array (row-matrix.ts): no array per row alive through the refit.
  const indexMatrix = yield* rowMatrixSteps(indexRows, spec.vectorOf, d, spec.vectorInto);
  const scaling = yield* fitScalingOfSteps(indexMatrix.rows, indexMatrix.rowAt, d);
  const excluded = new Set(spec.exclude ?? []);
  const allowed = spec.featureKeys.map((k) => (excluded.has(k) ? 0 : 1));

  let axis: Axis | null = null;
  /** `axisAt(i)`: row i's axis coordinate (out of fold for the rows the regressions were fitted on: fitAxisSteps). */
  const build = function* (c: Candidate, rows: readonly R[], vectorAt: (i: number) => ArrayLike<number>, axisAt: (i: number) => number): Steps<Weighted<R>> {
    const w = c.w;
    const ax = c.axis > 0 ? axis : null;
    let kept = w.flatMap((x, j) => (x > 0 ? [j] : []));
    if (kept.length === 0 && !ax) kept = allowed.flatMap((x, j) => (x > 0 ? [j] : []));
    const mean = kept.map((j) => scaling.mean[j]!);
    const std = kept.map((j) => scaling.std[j]! / (w[j]! > 0 ? w[j]! : 1));
    if (!ax) {
      // The kept columns of the raw vectors, indexed as they are: no projected copy per row.
      const project = (v: ArrayLike<number>) => kept.map((j) => v[j]!);
      return { index: yield* buildKdTreeIndexOnColumnsSteps(vectorAt, rows, kept, { mean, std }), project };
    }
    // The logistic axis is one more computed coordinate, so these rows are projected once.
    const rss = Math.sqrt(kept.reduce((s, j) => s + w[j]! ** 2, 0));
    mean.push(ax.mean);
    std.push(ax.std / (rss > 0 ? c.axis * rss : 1));
    const sc: Scaling = { mean, std };
    const project = (v: ArrayLike<number>) => [...kept.map((j) => v[j]!), ax.of(v)];
    // Each row is z-scored into the index as it is made, not kept; its axis coordinate is the row's own (axisAt).
    const index = yield* buildKdTreeIndexOfSteps(
      rows,
      (i) => {
        const v = vectorAt(i);
        return [...kept.map((j) => v[j]!), axisAt(i)];
      },
      sc,
    );
    return { index, project };
  };

  /**
   * Held-out log loss per k of the grid (mean over labels), each row's own loss at every k (mean over labels,
   * unweighted: the one-SE rule pairs them), and each row's weighted positives at every k.
   */
  const evaluate = function* (
    model: Weighted<R>,
    held: readonly R[],
    weights?: readonly number[],
  ): Steps<{ loss: number[]; rowLoss: Float64Array[]; votes: number[][][] }> {
    const loss = kGrid.map(() => 0);
    const rowLoss = kGrid.map(() => new Float64Array(held.length));
    const votes: number[][][] = [];
    const total = weights ? weights.reduce((a, x) => a + x, 0) : held.length;
    for (const [i, row] of held.entries()) {
      const w = weights ? weights[i]! : 1;
      const found = model.index.query(model.project(spec.vectorOf(row)), kGrid[kGrid.length - 1]!);
      const ys = labelsOf(row);
      const perK = kGrid.map((k, g) => {
        const wp = weightedPositives(found.slice(0, k), labelsOf, nLabels);
        const kk = Math.min(k, found.length);
        for (let j = 0; j < nLabels; j++) {
          const p = (wp[j]! + m * baseRates[j]!) / (kk + m);
          const l = -(ys[j] ? Math.log(p) : Math.log(1 - p));
          loss[g]! += (w * l) / (total * nLabels);
          rowLoss[g]![i]! += l / nLabels;
        }
        return wp;
      });
      votes.push(perK);
      // One query can cost a millisecond or more in twenty-odd dimensions: a pause after each keeps every step short.
      yield;
    }
    return { loss, rowLoss, votes };
  };

  let chosen: Candidate = { name: 'uniform', w: allowed, axis: 0 };
  // Per label, the logistic regression on the allowed features, fitted on index rows only: the weight candidates'
  // source, the logistic axis and the prior.
  const priors: LogisticModel[] = [];
  const allowedCols = allowed.flatMap((x, j) => (x > 0 ? [j] : []));
  const onAllowed = (v: ArrayLike<number>) => allowedCols.map((j) => v[j]!);
  // The held-out rows every choice (weights, axis, k, prior) is made on: a stratified, weighted sample of the slice.
  const { rows: held, weights: heldWeights } = stratify(
    split.calibrationRows,
    (r) => labelsOf(r).some(Boolean),
    spec.searchHeldOutRows ?? SEARCH_HELD_OUT_ROWS,
  );
  // The search rows are the newest `nIdx` index rows; the regressions are fitted on them.
  const nIdx = Math.min(indexRows.length, spec.searchIndexRows ?? SEARCH_INDEX_ROWS);
  if (calibrationRows.length > 0 && indexRows.length > 1) {
    const searchRows = indexRows.slice(indexRows.length - nIdx);
    const searchVectors = Array.from({ length: nIdx }, (_, i) => indexMatrix.copyRow(indexRows.length - nIdx + i));
    const candidates: Candidate[] = [chosen];
    const importance = new Array<number>(d).fill(0);
    const searchAllowed = searchVectors.map(onAllowed);
    for (let j = 0; j < nLabels; j++) {
      const lr = yield* fitLogisticSteps(
        searchAllowed,
        searchRows.map((r) => labelsOf(r)[j]!),
      );
      priors.push(lr);
      lr.coef.forEach((c, i) => (importance[allowedCols[i]!]! += Math.abs(c) / nLabels));
    }
    const top = Math.max(...importance);
    if (top > 0) {
      const imp = importance.map((x) => x / top);
      const rank = [...imp.keys()].sort((a, b) => imp[b]! - imp[a]! || a - b);
      // In the order of complexity the one-SE rule walks (header): the further a metric departs from uniform, the later.
      candidates.push({ name: 'logistic-sqrt', w: imp.map(Math.sqrt), axis: 0 }, { name: 'logistic', w: imp, axis: 0 });
      for (const n of [8, 4]) if (n < d) candidates.push({ name: `logistic-top${n}`, w: imp.map((x, f) => (rank.indexOf(f) < n ? x : 0)), axis: 0 });
    }
    // The incumbent's per-row held-out losses at its best k; a later candidate must beat them by one SE.
    let incumbent: Float64Array | null = null;
    const tryAll = function* (cs: readonly Candidate[]): Steps<void> {
      for (const c of cs) {
        const model = yield* build(
          c,
          searchRows,
          (i) => searchVectors[i]!,
          (i) => axis!.indexed[i]!,
        );
        const { loss, rowLoss } = yield* evaluate(model, held, heldWeights);
        const rows = rowLoss[loss.indexOf(Math.min(...loss))]!;
        if (!incumbent || clearsOneSe(incumbent, rows, heldWeights)) {
          incumbent = rows;
          chosen = c;
        }
      }
    };
    yield* tryAll(candidates);
    axis = yield* fitAxisSteps(priors, onAllowed, searchAllowed, (j) => searchRows.map((r) => labelsOf(r)[j]!));
    // The logistic axis on top of the winning weights (lightest first), then alone: tried after the plain metrics,
    // so it replaces the plain winner only when its held-out loss is lower by more than one SE.
    const axisGrid = spec.logisticAxisGrid ?? LOGISTIC_AXIS_GRID;
    if (axis && axisGrid.length > 0) {
      const base = chosen;
      yield* tryAll([
        ...axisGrid.map((a) => ({ name: `${base.name}+logistic-axis`, w: base.w, axis: a })),
        { name: 'logistic-axis', w: allowed.map(() => 0), axis: 1 },
      ]);
    }
  }
  const weights = chosen.w;

  // Index rows older than the search rows were not seen by the regressions: their full-fit log-odds are out of sample.
  const offset = indexRows.length - nIdx;
  const final = yield* build(chosen, indexRows, indexMatrix.rowAt, (i) => (i >= offset ? axis!.indexed[i - offset]! : axis!.of(indexMatrix.rowAt(i))));
  // The index rows' labels as bits by row id (the index's ids are positions in indexRows): a query's vote reads
  // them without a call or an array per neighbour.
  const labelBits = new Uint8Array(indexRows.length * nLabels);
  for (let i = 0; i < indexRows.length; i++) {
    labelsOf(indexRows[i]!).forEach((y, j) => (labelBits[i * nLabels + j] = y ? 1 : 0));
    if (pauseEvery(i, ROW_PIECE)) yield;
  }
  const vote = new Float64Array(nLabels);
  const votesOf = (nearest: NearestRows): Float64Array => weightedPositivesOf(nearest, labelBits, nLabels, vote);
  let k = Math.min(DEFAULT_K, Math.max(1, indexRows.length));
  let heldOutLogLoss: number | null = null;
  const heldVotes: number[][] = [];
  let beta = 0;
  const priorOf = (v: readonly number[]) => priors.map((lr) => lr.predict(onAllowed(v)));
  let heldPriors: number[][] = [];
  if (calibrationRows.length > 0) {
    // k and β on the weighted sample against the whole index (one query per row at the largest k)...
    const { loss, rowLoss, votes } = yield* evaluate(final, held, heldWeights);
    const sampledPriors = priors.length === 0 ? [] : held.map((r) => priorOf(spec.vectorOf(r)));
    const total = heldWeights.reduce((a, x) => a + x, 0);
    // (β, k) pairs in the one-SE rule's order: no prior before any, a smaller β before a larger, and at each β the
    // larger (smoother) k first.
    const pairs: { g: number; beta: number; loss: number; rows: Float64Array }[] = [];
    for (let gi = kGrid.length - 1; gi >= 0; gi--) pairs.push({ g: gi, beta: 0, loss: loss[gi]!, rows: rowLoss[gi]! });
    for (const b of priors.length === 0 ? [] : [...(spec.logisticPriorGrid ?? LOGISTIC_PRIOR_GRID)].sort((x, y) => x - y)) {
      for (let gi = kGrid.length - 1; gi >= 0; gi--) {
        const kn = Math.min(kGrid[gi]!, indexRows.length);
        const mPrior = b * kn;
        const rows = new Float64Array(held.length);
        let l = 0;
        for (const [i, r] of held.entries()) {
          const ys = labelsOf(r);
          for (let j = 0; j < nLabels; j++) rows[i]! += pointLogLoss((votes[i]![gi]![j]! + mPrior * sampledPriors[i]![j]!) / (kn + mPrior), ys[j]!) / nLabels;
          l += heldWeights[i]! * rows[i]!;
        }
        pairs.push({ g: gi, beta: b, loss: l / total, rows });
        // One (β, k) pair per piece: a pass over up to 20,000 held-out rows.
        yield;
      }
    }
    const pick =
      pairs[
        chooseByOneSe(
          pairs.map((p) => p.rows),
          heldWeights,
        )
      ]!;
    heldOutLogLoss = pick.loss;
    beta = pick.beta;
    k = kGrid[pick.g]!;
    // ...then the calibration slice (plain, not weighted: the calibrator sees the market as it is) at that k only,
    // which costs far less than the largest k when a small k won.
    heldPriors = beta > 0 ? calibrationRows.map((r) => priorOf(spec.vectorOf(r))) : [];
    for (const r of calibrationRows) {
      heldVotes.push(Array.from(votesOf(final.index.nearest(final.project(spec.vectorOf(r)), k))));
      yield;
    }
  }
  const kUsed = Math.min(k, indexRows.length);
  const mPrior = beta * kUsed;
  // The vote a calibrator sees: weighted positives plus the logistic prior's pseudo-neighbours, when chosen.
  const blended = (wp: ArrayLike<number>, n: number, prior: readonly number[] | undefined) => ({
    positives: Array.from(wp, (x, j) => x + (prior ? mPrior * prior[j]! : 0)),
    k: n + (prior ? mPrior : 0),
  });
  const labels: LabelFit[] = [];
  for (const [j, name] of spec.labels.entries()) {
    yield;
    const samples = calibrationRows.map((r, i) => {
      const b = blended(heldVotes[i]!, kUsed, beta > 0 ? heldPriors[i] : undefined);
      return { positives: b.positives[j]!, k: b.k, label: labelsOf(r)[j]! };
    });
    const { calibration, cells } = yield* fitLabelCalibrationSteps(samples, { baseRate: baseRates[j]!, priorStrength: m, minSamples, choose: true });
    yield;
    const backtest = holdoutBacktest(
      samples.map((x) => ({ raw: x.positives / x.k, label: x.label })),
      cells,
    );
    labels.push({ name, positives: positives[j]!, baseRate: baseRates[j]!, calibration, cells, backtest });
  }
  const metric: LearnedMetric = {
    weights: Object.fromEntries(spec.featureKeys.map((key, j) => [key, round6(weights[j]!)])),
    k,
    heldOutLogLoss,
    heldOutRows: calibrationRows.length,
    candidate: chosen.name,
    logisticPriorWeight: beta,
    logisticAxisWeight: chosen.axis,
  };
  const scoresOf = (vector: readonly number[], nearest: NearestRows): LabelScore[] => {
    const b = blended(votesOf(nearest), nearest.count, beta > 0 ? priorOf(vector) : undefined);
    return labels.map((l, j) => labelScore(l, b.positives[j]!, b.k));
  };
  const queryAs = <N>(vector: readonly number[], neighbour: (row: R, distance: number, id: number) => N) => {
    const nearest = final.index.nearest(final.project(vector), k);
    // Built before scoring: nothing else may query the index in between, the arrays are its scratch.
    const neighbours = new Array<N>(nearest.count);
    for (let i = 0; i < nearest.count; i++) neighbours[i] = neighbour(indexRows[nearest.ids[i]!]!, nearest.distances[i]!, nearest.ids[i]!);
    return { neighbours, scores: scoresOf(vector, nearest) };
  };
  return {
    corpusSize: corpus.length,
    indexSize: final.index.size,
    indexRows,
    // Every held-out row, thinned or not, so the version covers the whole corpus.
    calibrationRows: split.calibrationRows,
    labels,
    metric,
    scaling,
    query(vector) {
      return queryAs(vector, (label, distance, id) => ({ id, label, distance }));
    },
    queryAs,
    scores(vector) {
      return scoresOf(vector, final.index.nearest(final.project(vector), k));
    },
  };
}

/**
 * The logistic axis: the mean over labels of each regression's log-odds. A query gets the full fits' (`models`, fitted
 * on the search rows); the search rows themselves get cross-fitted, out-of-fold log-odds (cross-fit.ts), so an index
 * positive sits where a new positive would land rather than where the fit that saw it put it. Mean and std are the
 * out-of-fold values'; null when they are constant (nothing to add).
 */
function* fitAxisSteps(
  models: readonly LogisticModel[],
  onAllowed: (v: ArrayLike<number>) => number[],
  searchAllowed: readonly (readonly number[])[],
  labelsAt: (j: number) => boolean[],
): Steps<Axis | null> {
  if (models.length === 0 || searchAllowed.length === 0) return null;
  const of = (v: ArrayLike<number>) => {
    const x = onAllowed(v);
    return models.reduce((s, lr) => s + lr.logOdds(x), 0) / models.length;
  };
  const indexed = new Float64Array(searchAllowed.length);
  for (let j = 0; j < models.length; j++) {
    const oof = yield* crossFittedLogOddsSteps(searchAllowed, labelsAt(j));
    for (let i = 0; i < indexed.length; i++) indexed[i]! += oof[i]! / models.length;
  }
  const { mean, std } = yield* fitScalingOfSteps(indexed.length, (i) => indexed.subarray(i, i + 1), 1);
  // fitScaling maps a constant column to std 1; a constant axis separates nothing.
  const spread = indexed.some((x) => x !== indexed[0]);
  return spread ? { of, indexed, mean: mean[0]!, std: std[0]! } : null;
}

/** Distance-weighted positive count per label: votes ∝ 1/(d + mean d), normalised to sum to the neighbour count. */
export function weightedPositives<R>(found: readonly KnnNeighbour<R>[], labelsOf: (r: R) => readonly boolean[], nLabels: number): number[] {
  const n = found.length;
  const nearest: NearestRows = { count: n, ids: new Int32Array(n), distances: new Float64Array(n) };
  const bits = new Uint8Array(n * nLabels);
  for (let i = 0; i < n; i++) {
    nearest.ids[i] = i;
    nearest.distances[i] = found[i]!.distance;
    labelsOf(found[i]!.label).forEach((y, j) => (bits[i * nLabels + j] = y ? 1 : 0));
  }
  return Array.from(weightedPositivesOf(nearest, bits, nLabels, new Float64Array(nLabels)));
}

/**
 * `weightedPositives` of a query's nearest rows, row id i's labels at `bits[i·nLabels + j]`, written into `out`.
 * The sums run in the same order as they always have (mean distance, then the raw votes, then each positive's share),
 * so scores are the same to the last bit; the vote is recomputed instead of kept, so nothing is allocated.
 */
export function weightedPositivesOf(nearest: NearestRows, bits: Uint8Array, nLabels: number, out: Float64Array): Float64Array {
  const { count: n, ids, distances } = nearest;
  out.fill(0);
  if (n === 0) return out;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += distances[i]!;
  const mean = sum / n;
  let rawSum = 0;
  for (let i = 0; i < n; i++) rawSum += mean > 0 ? 1 / (distances[i]! + mean) : 1;
  const scale = n / rawSum;
  for (let i = 0; i < n; i++) {
    const at = ids[i]! * nLabels;
    for (let j = 0; j < nLabels; j++) if (bits[at + j] === 1) out[j]! += (mean > 0 ? 1 / (distances[i]! + mean) : 1) * scale;
  }
  // Rounding can carry a sum of all-positive votes a hair past the neighbour count.
  for (let j = 0; j < nLabels; j++) out[j] = Math.min(out[j]!, n);
  return out;
}

/** Every ⌈n/max⌉-th row, so the search sees the whole held-out period, not only its start. */
function thin<R>(rows: readonly R[], max: number): R[] {
  if (rows.length <= max) return [...rows];
  const step = rows.length / max;
  return Array.from({ length: max }, (_, i) => rows[Math.floor(i * step)]!);
}

/**
 * At most `max` rows for the metric search: rows with a positive label and rows without, each stratum thinned evenly
 * in time to half of `max` (a stratum with fewer keeps all and the other takes the rest), each row weighted by its
 * stratum's size ÷ rows kept, so the weighted mean log loss estimates the whole slice's. With positives rare (~1%),
 * a plain thinning of 2,000 rows kept ~20 of them and the search compared candidates on those few; this keeps up to
 * half the sample positive at half the cost.
 */
export function stratify<R>(rows: readonly R[], positive: (r: R) => boolean, max: number): { rows: R[]; weights: number[] } {
  const pos = rows.filter(positive);
  const neg = rows.filter((r) => !positive(r));
  const nPos = Math.min(pos.length, Math.max(Math.ceil(max / 2), max - neg.length));
  const nNeg = Math.min(neg.length, max - nPos);
  const keptPos = thin(pos, nPos);
  const keptNeg = thin(neg, nNeg);
  return {
    rows: [...keptPos, ...keptNeg],
    weights: [...keptPos.map(() => pos.length / nPos), ...keptNeg.map(() => neg.length / nNeg)],
  };
}

/** Rows per uninterrupted piece of a plain pass over the corpus. */
const ROW_PIECE = 1 << 14;

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;
