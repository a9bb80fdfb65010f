import type { CorpusRow } from '../../../domain/scoring/grad-prob-model';
import { fitGradProbV2Model } from '../../../domain/scoring/grad-prob-v2-model';
import { modelFamily } from '../../../domain/scoring/knn-label-model';
import { LAUNCH_FEATURE_KEYS, type LaunchFeatures } from '../../../domain/scoring/launch-features';
import { SeededRandom } from '../../../ingest/simulator/seeded-random';
import { corpusRow, twoFeatureCorpus as corpus, twoFeatureLaunch as launch, v1Features } from '../../support/launch-corpus';

const T0 = Date.parse('2026-10-01T00:00:00Z');

const v1 = v1Features;

describe('grad_prob knn-v2 (learned metric)', () => {
  const rows = corpus(3000, 7);
  const model = fitGradProbV2Model(rows, { ageBucket: 30 });

  it('chooses weights and k by held-out log loss, and puts them in the version', () => {
    expect(model.metric.heldOutRows).toBe(900);
    expect(model.metric.heldOutLogLoss).toBeGreaterThan(0);
    expect([10, 25, 50, 100]).toContain(model.metric.k);
    expect(model.version).toMatch(new RegExp(`^knn-v2@30:3000:k${model.metric.k}:[0-9a-f]{14}$`));
    expect(modelFamily(model.version)).toBe('knn-v2');
    // The two informative features outweigh every noise feature unless the uniform metric won.
    if (model.metric.candidate !== 'uniform') {
      const w = model.metric.weights;
      const noise = LAUNCH_FEATURE_KEYS.filter((k) => k !== 'vSolSol' && k !== 'logSwaps').map((k) => w[k]!);
      expect(Math.min(w.vSolSol!, w.logSwaps!)).toBeGreaterThan(Math.max(...noise));
    }
  });

  it('beats the uniform metric on held-out log loss when noise features dominate', () => {
    const uniform = fitGradProbV2Model(rows, { ageBucket: 30, kGrid: [model.metric.k], searchIndexRows: 1 });
    expect(model.metric.heldOutLogLoss!).toBeLessThanOrEqual(uniform.metric.heldOutLogLoss! + 1e-12);
  });

  it('scores on a continuum, not on multiples of 1/k, ranks graduates first, and stays inside (0, 1)', () => {
    const rng = new SeededRandom(99);
    const probe = Array.from({ length: 400 }, () => {
      const g = rng.chance(0.5);
      const l = launch(rng, g);
      return { g, s: model.score({ ...v1(l.vSolSol), launch: l }) };
    });
    const raws = new Set(probe.map((p) => p.s.raw));
    const steps = new Set(probe.map((p) => Math.round(p.s.raw * p.s.k)));
    expect(raws.size).toBeGreaterThan(steps.size * 2);
    for (const p of probe) expect(p.s.prob > 0 && p.s.prob < 1).toBe(true);
    const meanG = probe.filter((p) => p.g).reduce((a, p) => a + p.s.prob, 0) / probe.filter((p) => p.g).length;
    const meanD = probe.filter((p) => !p.g).reduce((a, p) => a + p.s.prob, 0) / probe.filter((p) => !p.g).length;
    expect(meanG).toBeGreaterThan(meanD * 2);
  });

  it('is deterministic, and leaves out rows logged before the launch features existed', () => {
    expect(fitGradProbV2Model(rows, { ageBucket: 30 }).version).toBe(model.version);
    const old = rows.slice(0, 100).map((r) => ({ ...r, features: v1(r.features.vSolSol) }));
    const mixed = fitGradProbV2Model([...old, ...rows.slice(100)], { ageBucket: 30 });
    expect(mixed.corpusSize).toBe(2900);
    expect(() => mixed.score(v1(40))).toThrow(RangeError);
  });

  it('shrinks the neighbour vote toward the logistic score only when held-out loss says so', () => {
    // Graduation odds spread smoothly over twelve features: a linear score fits them, a 23-dimensional vote is noisy.
    const rng = new SeededRandom(21);
    const smooth: CorpusRow[] = Array.from({ length: 3000 }, (_, i) => {
      const l = Object.fromEntries(LAUNCH_FEATURE_KEYS.map((k) => [k, rng.uniform(0, 1)])) as LaunchFeatures;
      const z = -3 + 3 * LAUNCH_FEATURE_KEYS.slice(0, 12).reduce((a, k) => a + l[k] - 0.5, 0);
      return corpusRow(i, { ...v1(l.vSolSol), launch: l }, rng.chance(1 / (1 + Math.exp(-z))), { t0: T0, gradAfterMs: 300_000 });
    });
    const blended = fitGradProbV2Model(smooth, { ageBucket: 30 });
    const plain = fitGradProbV2Model(smooth, { ageBucket: 30, logisticPriorGrid: [] });
    expect(plain.metric.logisticPriorWeight).toBe(0);
    expect(blended.metric.logisticPriorWeight).toBeGreaterThan(0);
    expect(blended.metric.heldOutLogLoss!).toBeLessThan(plain.metric.heldOutLogLoss!);
    // With the prior chosen the score still comes from the k nearest rows: it is not the logistic score alone.
    expect(blended.score(smooth[0]!.features).k).toBe(blended.metric.k);
    // Where the vote alone does better, no prior is forced on it (the plain vote is always a candidate).
    const unforced = fitGradProbV2Model(rows, { ageBucket: 30, logisticPriorGrid: [] });
    expect(model.metric.heldOutLogLoss!).toBeLessThanOrEqual(unforced.metric.heldOutLogLoss! + 1e-12);
  });

  it('falls back to the uniform metric without a held-out slice, and to the prior on an empty corpus', () => {
    const small = fitGradProbV2Model(rows.slice(0, 100), { ageBucket: 30 });
    expect(small.metric).toMatchObject({ candidate: 'uniform', heldOutLogLoss: null, heldOutRows: 0 });
    const empty = fitGradProbV2Model([], { ageBucket: 30 });
    const s = empty.score(rows[0]!.features);
    expect(s.k).toBe(0);
    expect(s.prob).toBeCloseTo(0.01, 12);
  });
});
