import { splitCorpus } from '../../../domain/scoring/corpus-split';
import { DEFAULT_PRIOR_GRAD_RATE, fitGradProbModel, scoreAgeBucket, SCORE_AGES, type CorpusRow } from '../../../domain/scoring/grad-prob-model';
import type { MintFeatures } from '../../../domain/scoring/mint-features';
import { SeededRandom } from '../../../ingest/simulator/seeded-random';

const T0 = Date.parse('2026-10-01T00:00:00Z');

const features = (vSolSol: number, logTrades = 2, topBuyerShare = 0.3): MintFeatures => ({
  vSolSol,
  vSolGrowthSol: vSolSol - 30,
  logTrades,
  logUniqueBuyers: logTrades - 0.5,
  topBuyerShare,
  currentMult: (vSolSol / 30) ** 2,
  buyCount: 5,
  sellCount: 2,
  uniqueBuyers: 4,
  creatorSold: false,
});

/** Observed a minute apart; like real mints, a graduate resolves minutes after it is observed, a dud 24 h later. */
const row = (i: number, f: MintFeatures, graduated: boolean): CorpusRow => ({
  mint: `mint-${String(i).padStart(5, '0')}`,
  ageBucket: 30,
  features: f,
  graduated,
  observedAt: new Date(T0 + i * 60_000),
  resolvedAt: new Date(T0 + i * 60_000 + (graduated ? 300_000 : 86_400_000)),
});

/** Duds near vSol 31, graduates near vSol 45: a corpus where the features carry real signal. */
function twoClusters(n: number, seed: number, gradShare = 0.1): CorpusRow[] {
  const rng = new SeededRandom(seed);
  return Array.from({ length: n }, (_, i) => {
    const g = rng.chance(gradShare);
    return row(i, features(g ? rng.uniform(38, 52) : rng.uniform(30, 40), rng.uniform(1, 4), rng.uniform(0.1, 0.9)), g);
  });
}

describe('grad_prob model', () => {
  it('keeps a walk-forward backtest of the held-out newest slice: out-of-sample AUC and band cells', () => {
    const model = fitGradProbModel(twoClusters(1000, 11), { ageBucket: 30 });
    const { indexRows, calibrationRows } = splitCorpus(twoClusters(1000, 11), 0.3, 200);
    const bt = model.backtest;
    expect(bt.n).toBe(calibrationRows.length);
    expect(indexRows.length + bt.n).toBe(1000);
    expect(bt.positives).toBe(calibrationRows.filter((r) => r.graduated).length);
    expect(bt.cells.reduce((s, c) => s + c.n, 0)).toBe(bt.n);
    // The clusters separate graduates: ranking on rows the index never saw is far above chance.
    expect(bt.auc).toBeGreaterThan(0.8);
    // Without a slice (too small a corpus) there is nothing to backtest.
    const small = fitGradProbModel(twoClusters(100, 11), { ageBucket: 30 }).backtest;
    expect(small).toMatchObject({ n: 0, positives: 0, auc: null });
  });

  it('predicts the documented prior on an empty corpus, never NaN', () => {
    const model = fitGradProbModel([], { ageBucket: 30 });
    const s = model.score(features(40));
    expect(s).toMatchObject({
      prob: DEFAULT_PRIOR_GRAD_RATE,
      raw: DEFAULT_PRIOR_GRAD_RATE,
      k: 0,
      grads: 0,
      neighbours: [],
      confidenceBand: { lo: 0, hi: 0.05 },
    });
    expect(s.calibrationCell).toEqual({ n: 0, actualRate: null });
    expect(model.version).toMatch(/^knn-v1@30:0:[0-9a-f]{14}$/);
    expect(model.calibration.method).toBe('smoothed-knn');
  });

  it('does not saturate when every neighbour graduated (small corpus, smoothed k-NN)', () => {
    const corpus = Array.from({ length: 60 }, (_, i) => row(i, features(45 + (i % 5) * 0.1), true));
    const s = fitGradProbModel(corpus, { ageBucket: 30 }).score(features(45));
    expect(s.raw).toBe(1);
    expect(s.k).toBe(50);
    expect(s.prob).toBeLessThan(1);
    expect(s.prob).toBeGreaterThan(0.5);
  });

  it('does not saturate in an all-graduate region of a calibrated model either', () => {
    const model = fitGradProbModel(twoClusters(5000, 1), { ageBucket: 30 });
    expect(model.calibration.method).toBe('isotonic');
    const hot = model.score(features(50));
    expect(hot.raw).toBe(1);
    expect(hot.prob).toBeLessThan(1);
    expect(hot.prob).toBeGreaterThan(0.5);
    const cold = model.score(features(31));
    expect(cold.raw).toBe(0);
    expect(cold.prob).toBeGreaterThan(0);
    expect(cold.prob).toBeLessThan(0.05);
  });

  it('calibrates on the later slice only, scored against an index that does not contain it', () => {
    // Early rows graduate half the time; the latest 30% never do. A calibrator fitted on index rows (or on
    // leave-one-out) would map raw ~0.5 to ~0.5; fitted on the later slice alone it maps it close to 0.
    const rng = new SeededRandom(2);
    const corpus = Array.from({ length: 1000 }, (_, i) => row(i, features(rng.uniform(30, 50), rng.uniform(1, 4)), i < 700 && rng.chance(0.5)));
    const model = fitGradProbModel(corpus, { ageBucket: 30, calibrationShare: 0.3, minCalibrationSamples: 200 });
    expect(model.indexSize).toBe(700);
    expect(model.calibration.samples).toBe(300);
    expect(model.calibration.blocks.reduce((n, b) => n + b.n, 0)).toBe(300);
    expect(model.cells.reduce((n, c) => n + c.n, 0)).toBe(300);
    const s = model.score(features(40, 2.5));
    expect(s.raw).toBeGreaterThan(0.3);
    expect(s.prob).toBeLessThan(0.05);
    expect(s.neighbours.every((n) => Number(n.mint.slice(5)) < 700)).toBe(true);
  });

  it('splits by observation time: the index rows were all observed before the calibration rows', () => {
    const corpus = twoClusters(1000, 3);
    const shuffled = [...corpus].sort((a, b) => a.features.vSolSol - b.features.vSolSol);
    const { indexRows, calibrationRows } = splitCorpus(shuffled, 0.3, 200);
    expect(indexRows).toHaveLength(700);
    expect(calibrationRows).toHaveLength(300);
    const lastIndexed = Math.max(...indexRows.map((r) => r.observedAt.getTime()));
    expect(calibrationRows.every((r) => r.observedAt.getTime() >= lastIndexed)).toBe(true);
    expect(new Set([...indexRows, ...calibrationRows].map((r) => r.mint)).size).toBe(1000);
    // Too few rows for a calibration slice: everything goes to the index.
    expect(splitCorpus(shuffled.slice(0, 500), 0.3, 200)).toMatchObject({ calibrationRows: [] });
  });

  it('keeps graduates in the calibration slice although they resolve a day before their contemporaries', () => {
    // Over a 2000-minute corpus every dud of the last 30% resolves after every graduate: a split by
    // resolution time would calibrate on duds only.
    const model = fitGradProbModel(twoClusters(2000, 6), { ageBucket: 30 });
    const positives = model.cells.reduce((n, c) => n + c.positives, 0);
    expect(positives).toBeGreaterThan(30);
    expect(model.score(features(48)).prob).toBeGreaterThan(0.3);
  });

  it('is deterministic: row order does not matter, a changed corpus changes the version', () => {
    const corpus = twoClusters(2000, 4);
    const a = fitGradProbModel(corpus, { ageBucket: 30 });
    const b = fitGradProbModel([...corpus].reverse(), { ageBucket: 30 });
    expect(b.version).toBe(a.version);
    expect(b.score(features(42))).toEqual(a.score(features(42)));
    const flipped = corpus.map((r, i) => (i === 10 ? { ...r, graduated: !r.graduated } : r));
    expect(fitGradProbModel(flipped, { ageBucket: 30 }).version).not.toBe(a.version);
    expect(a.version).toMatch(/^knn-v1@30:2000:/);
  });

  it('separates the clusters it was shown', () => {
    const model = fitGradProbModel(twoClusters(5000, 5), { ageBucket: 30 });
    expect(model.score(features(46)).prob).toBeGreaterThan(5 * model.score(features(33)).prob);
  });

  it('refuses rows of another age bucket', () => {
    expect(() => fitGradProbModel([{ ...row(0, features(40), false), ageBucket: 60 }], { ageBucket: 30 })).toThrow(RangeError);
  });
});

describe('score ages', () => {
  it('are 30 s and 60 s, with a window of about', () => {
    expect(SCORE_AGES).toEqual([30, 60]);
    expect([29.9, 30, 44.9, 45, 59, 60, 74.9, 75, 600].map((a) => scoreAgeBucket(a))).toEqual([null, 30, 30, null, null, 60, 60, null, null]);
  });
});
