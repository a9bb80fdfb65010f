import { createHash } from 'node:crypto';
import type { CorpusRow } from '../../../domain/scoring/grad-prob-model';
import { fitGradProbV2Model } from '../../../domain/scoring/grad-prob-v2-model';
import { LAUNCH_FEATURE_KEYS, type LaunchFeatures } from '../../../domain/scoring/launch-features';
import { RUG_FEATURE_KEYS, type RugFeatures } from '../../../domain/scoring/rug-features';
import type { RugCorpusRow } from '../../../domain/scoring/rug-model';
import { fitRugV2Model } from '../../../domain/scoring/rug-v2-model';
import type { RunnerCorpusRow } from '../../../domain/scoring/runner-model';
import { fitRunnerV2Model } from '../../../domain/scoring/runner-v2-model';
import { SeededRandom } from '../../../ingest/simulator/seeded-random';
import { corpusRow, twoFeatureCorpus, twoFeatureLaunch, v1Features } from '../../support/launch-corpus';

/**
 * The knn-v2 family's scores on seeded corpora, pinned to the last bit: the query path (neighbour search, the
 * distance-weighted vote, the label lookups) may get faster, never different. The digests cover every probe's
 * probability, raw rate and neighbours (address and distance); they were taken from the code before the query path
 * read labels from bit arrays and neighbours from the index's scratch arrays; the logistic-axis and rug_prob pins
 * were taken again when the index rows' axis coordinates became cross-fitted (the scores of the axis change there,
 * by design), from the cross-fitting code before it met the faster query path, and the merged code gives the same.
 * The grad_prob and rug_prob pins were taken again when the metric came to be chosen by the one-standard-error rule,
 * where that rule chose differently (the query path itself unchanged); the runner's choice, and so its pin, stayed.
 */
const T0 = Date.parse('2026-10-01T00:00:00Z');

/**
 * Graduation odds rising steeply with the sum of twelve features: a corpus where the logistic axis alone wins the
 * metric by more than one standard error (at a slope of 3 the one-SE rule keeps the axis on the square-rooted weights).
 */
function linearCorpus(n: number, seed: number): CorpusRow[] {
  const rng = new SeededRandom(seed);
  return Array.from({ length: n }, (_, i) => {
    const l = Object.fromEntries(LAUNCH_FEATURE_KEYS.map((k) => [k, rng.uniform(0, 1)])) as LaunchFeatures;
    const sum = LAUNCH_FEATURE_KEYS.slice(0, 12).reduce((a, k) => a + l[k], 0);
    const g = rng.chance(1 / (1 + Math.exp(-5 * (sum - 7))));
    return corpusRow(i, { ...v1Features(l.vSolSol), launch: l }, g, { t0: T0 });
  });
}

const probes = (seed: number, n: number) => {
  const rng = new SeededRandom(seed);
  return Array.from({ length: n }, () => {
    const l = twoFeatureLaunch(rng, rng.chance(0.5));
    return { ...v1Features(l.vSolSol), launch: l };
  });
};

const digest = (x: unknown) => createHash('sha256').update(JSON.stringify(x)).digest('hex').slice(0, 16);

describe('knn-v2 family scores are pinned', () => {
  const rows = twoFeatureCorpus(3000, 7);
  const queries = probes(99, 200);

  it.each([
    ['feature weights on the raw columns', () => rows, 'logistic', 'grad'],
    ['the logistic axis alone', () => linearCorpus(3000, 3), 'logistic-axis', 'gradAxis'],
  ] as const)('grad_prob with %s', (_, corpus, candidate, key) => {
    const model = fitGradProbV2Model(corpus(), { ageBucket: 30 });
    expect(model.metric.candidate).toBe(candidate);
    const pinned = PINNED[key];
    const scores = queries.map((q) => model.score(q));
    expect(scores[0]!.prob).toBe(pinned.first.prob);
    expect(scores[0]!.raw).toBe(pinned.first.raw);
    expect(scores[0]!.grads).toBe(pinned.first.grads);
    expect(scores[0]!.neighbours.slice(0, 2)).toEqual(pinned.first.neighbours);
    expect(digest(scores.map((s) => [s.prob, s.raw, s.k, s.grads, s.neighbours, s.confidenceBand, s.calibrationCell]))).toBe(pinned.digest);
  });

  it('runner odds (five labels per row) and rug_prob', () => {
    const rng = new SeededRandom(5);
    const runnerRows: RunnerCorpusRow[] = rows.map((r) => ({
      mint: r.mint,
      ageBucket: 30,
      features: r.features,
      peakMult: r.graduated ? rng.uniform(1, 30) : rng.uniform(0.2, 4),
      observedAt: r.observedAt,
    }));
    const runner = fitRunnerV2Model(runnerRows, { ageBucket: 30 });
    expect(digest(queries.map((q) => runner.score(q)))).toBe(PINNED.runner);

    const rugRng = new SeededRandom(11);
    const rugRows: RugCorpusRow[] = Array.from({ length: 3000 }, (_, i) => {
      const f = Object.fromEntries(RUG_FEATURE_KEYS.map((k) => [k, rugRng.uniform(0, 1)])) as RugFeatures;
      const rugged = rugRng.chance(0.02 + 0.6 * (0.7 * f.bundlePct + 0.3 * f.creatorSoldShare) ** 2);
      return { mint: `m${String(i).padStart(5, '0')}`, ageBucket: 30, features: f, rugged, observedAt: new Date(T0 + i * 60_000) };
    });
    const rug = fitRugV2Model(rugRows, { ageBucket: 30 });
    expect(digest(rugRows.slice(0, 200).map((r) => rug.score(r.features)))).toBe(PINNED.rug);
  });
});

const PINNED = {
  grad: {
    first: {
      prob: 0.9950478144992584,
      raw: 0.9998953822499864,
      grads: 50,
      neighbours: [
        { mint: 'mint-01257', graduated: true, distance: 0.13639247425361745 },
        { mint: 'mint-01648', graduated: true, distance: 0.17539681712530839 },
      ],
    },
    digest: '2f4419a77277c462',
  },
  gradAxis: {
    first: {
      prob: 0.9771271584947651,
      raw: 0.992008373605538,
      grads: 99,
      neighbours: [
        { mint: 'mint-00019', graduated: true, distance: 48.264403190353896 },
        { mint: 'mint-01132', graduated: true, distance: 48.274379036096946 },
      ],
    },
    digest: '06651eaf63424551',
  },
  runner: '66203eb9fe162079',
  rug: '08cc81d14e6093e1',
};
