import { JEFFREYS_PRIOR } from '../../../domain/scoring/knn-label-model';
import { fitLearnedKnnModelSteps, stratify, type LearnedKnnSpec } from '../../../domain/scoring/learned-knn-model';
import { runSteps } from '../../../domain/scoring/stepwise';
import { LEARNED_KNN_KEYS, learnedKnnRows, type LearnedKnnRow } from '../../support/learned-knn-rows';

type Row = LearnedKnnRow;
const KEYS = LEARNED_KNN_KEYS;
const corpus = learnedKnnRows;

const spec = (extra: Partial<LearnedKnnSpec<Row>> = {}): LearnedKnnSpec<Row> => ({
  featureKeys: KEYS,
  vectorOf: (r) => r.v,
  labels: ['y'],
  labelsOf: (r) => [r.y],
  baseRatePrior: JEFFREYS_PRIOR,
  // The prior is left out so the comparison is between metrics alone.
  logisticPriorGrid: [],
  ...extra,
});

const fit = (rows: readonly Row[], extra?: Partial<LearnedKnnSpec<Row>>) => runSteps(fitLearnedKnnModelSteps(rows, spec(extra)));

describe('the logistic axis of the learned metric', () => {
  it('is chosen when the label follows one direction spread over many features, and lowers the held-out loss', () => {
    // Odds rise along the sum of ten features: in ten dimensions a neighbourhood is wide and noisy; along the
    // logistic's log-odds it is narrow.
    const rows = corpus(4000, 5, (v) => 1 / (1 + Math.exp(-(-2 + 2.5 * v.slice(0, 10).reduce((a, x) => a + (x - 0.5) * 2, 0)))));
    const withAxis = fit(rows);
    const without = fit(rows, { logisticAxisGrid: [] });
    expect(without.metric.logisticAxisWeight).toBe(0);
    expect(withAxis.metric.candidate).toMatch(/logistic-axis$/);
    expect(withAxis.metric.logisticAxisWeight).toBeGreaterThan(0);
    expect(withAxis.metric.heldOutLogLoss!).toBeLessThan(without.metric.heldOutLogLoss!);
    // Still k nearest rows: the query returns k neighbours, and the score moves with the direction.
    const low = withAxis.query(KEYS.map(() => 0.2));
    const high = withAxis.query(KEYS.map(() => 0.8));
    expect(low.neighbours).toHaveLength(withAxis.metric.k);
    expect(high.scores[0]!.prob).toBeGreaterThan(low.scores[0]!.prob * 3);
  });

  it('is not forced where the label is local, not a direction', () => {
    // Graduates sit in a disc in the middle of two features: no linear direction separates them.
    const rows = corpus(4000, 6, (v) => ((v[0]! - 0.5) ** 2 + (v[1]! - 0.5) ** 2 < 0.03 ? 0.7 : 0.03));
    const withAxis = fit(rows);
    const without = fit(rows, { logisticAxisGrid: [] });
    expect(withAxis.metric.logisticAxisWeight).toBe(0);
    expect(withAxis.metric.candidate).toBe(without.metric.candidate);
    expect(withAxis.metric.heldOutLogLoss).toBe(without.metric.heldOutLogLoss);
  });
});

describe('the stratified held-out sample', () => {
  it('keeps up to half positives, thins each stratum evenly, and weights rows back to the slice', () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => ({ i, y: i % 100 === 0 }));
    const { rows: kept, weights } = stratify(rows, (r) => r.y, 1000);
    expect(kept).toHaveLength(1000);
    expect(kept.filter((r) => r.y)).toHaveLength(100);
    expect(weights.reduce((a, w) => a + w, 0)).toBeCloseTo(10_000, 9);
    const neg = kept.filter((r) => !r.y);
    expect(neg[0]!.i).toBeLessThan(20);
    expect(neg[neg.length - 1]!.i).toBeGreaterThan(9_950);
    // A rare stratum never loses rows to the common one; a small slice is kept whole at weight 1.
    const small = stratify(rows.slice(0, 500), (r) => r.y, 1000);
    expect(small.rows).toHaveLength(500);
    expect(small.weights.every((w) => w === 1)).toBe(true);
    const manyPositives = stratify(
      rows.map((r) => ({ ...r, y: r.i % 2 === 0 })),
      (r) => r.y,
      1000,
    );
    expect(manyPositives.rows.filter((r) => r.y)).toHaveLength(500);
  });
});
