import { JEFFREYS_PRIOR } from '../../../domain/scoring/knn-label-model';
import { DEFAULT_K_GRID, fitLearnedKnnModelSteps } from '../../../domain/scoring/learned-knn-model';
import { runSteps } from '../../../domain/scoring/stepwise';
import { LEARNED_KNN_KEYS, learnedKnnRows, type LearnedKnnRow } from '../../support/learned-knn-rows';

type Row = LearnedKnnRow;
const KEYS = LEARNED_KNN_KEYS;
const corpus = learnedKnnRows;

const fit = (rows: readonly Row[]) =>
  runSteps(
    fitLearnedKnnModelSteps(rows, {
      featureKeys: KEYS,
      vectorOf: (r) => r.v,
      labels: ['y'],
      labelsOf: (r) => [r.y],
      baseRatePrior: JEFFREYS_PRIOR,
    }),
  );

describe('the learned metric is chosen by the one-standard-error rule', () => {
  it('keeps the simplest metric, the largest k and no prior when the labels carry nothing', () => {
    // Graduation at a flat 5%, whatever the features: every candidate's held-out loss differs from uniform's by
    // noise alone, and the lowest of them (picked before this rule) was some other candidate, k or β.
    const model = fit(corpus(4000, 21, () => 0.05));
    expect(model.metric.candidate).toBe('uniform');
    expect(model.metric.k).toBe(Math.max(...DEFAULT_K_GRID));
    expect(model.metric.logisticPriorWeight).toBe(0);
    expect(model.metric.logisticAxisWeight).toBe(0);
  });

  it('still leaves uniform for learned weights when a few features clearly carry the label', () => {
    // Odds set by two of twelve features: uniform distance spends ten dimensions on noise.
    const model = fit(corpus(4000, 22, (v) => 1 / (1 + Math.exp(-(-3 + 6 * (v[0]! - 0.5) + 6 * (v[1]! - 0.5))))));
    expect(model.metric.candidate).not.toBe('uniform');
    expect(model.metric.weights['f0']!).toBeGreaterThan(model.metric.weights['f5']!);
    expect(model.metric.weights['f1']!).toBeGreaterThan(model.metric.weights['f5']!);
  });
});
