import { CURVE } from '../../../domain/launch/launch-events';
import type { MintFeatures } from '../../../domain/scoring/mint-features';
import { computeRugFeatures, RUG_FEATURE_KEYS, rugVector, type RugFeatures } from '../../../domain/scoring/rug-features';
import { fitRugModel, MIN_RUG_CORPUS, type RugCorpusRow } from '../../../domain/scoring/rug-model';
import { fitSurvivalModel, MIN_SURVIVAL_CORPUS, type SurvivalCorpusRow } from '../../../domain/scoring/survival-model';
import { SeededRandom } from '../../../ingest/simulator/seeded-random';
import { CREATE_SLOT, handBuiltMint } from '../../support/hand-built-mint';

const T0 = Date.parse('2026-10-01T00:00:00Z');
const rugFeatures = (bundlePct: number, creatorSoldShare = 0): RugFeatures => ({
  bundlePct,
  bundleSoldShare: 0,
  top10HolderShare: 0.2 + bundlePct,
  creatorHoldingShare: 0.02,
  creatorSoldShare,
  freshFirst3: 1,
  sniperCount: 1,
  sellShare: 0.1,
  logTrades: 2,
  vSolGrowthSol: 5,
});
const rugRow = (i: number, f: RugFeatures, rugged: boolean): RugCorpusRow => ({
  mint: `m${String(i).padStart(5, '0')}`,
  ageBucket: 30,
  features: f,
  rugged,
  observedAt: new Date(T0 + i * 60_000),
});

describe('rug features', () => {
  it('are computed from the tape at the scoring age', () => {
    const m = handBuiltMint();
    const dev = m.buy(0, 'DEV', 2, CREATE_SLOT);
    const b = m.buy(0.1, 'B1', 4, CREATE_SLOT);
    m.buy(1, 'SNIPE', 1);
    m.buy(10, 'A', 1);
    m.sell(20, 'DEV', Math.floor(dev / 2));
    m.sell(21, 'B1', Math.floor(b / 4));
    const f = computeRugFeatures(m.tape(), 2);
    expect(f.bundlePct).toBeCloseTo(b / CURVE.totalSupplyRaw, 12);
    expect(f.bundleSoldShare).toBeCloseTo(0.25, 6);
    expect(f.creatorSoldShare).toBeCloseTo(0.5, 6);
    expect(f.creatorHoldingShare).toBeCloseTo((dev - Math.floor(dev / 2)) / CURVE.totalSupplyRaw, 12);
    expect(f).toMatchObject({ freshFirst3: 2, sniperCount: 2, sellShare: 2 / 6, logTrades: Math.log1p(6) });
    expect(f.vSolGrowthSol).toBeGreaterThan(0);
    expect(rugVector(f)).toHaveLength(RUG_FEATURE_KEYS.length);
  });

  it('describe a mint without trades as zeros', () => {
    const f = computeRugFeatures(handBuiltMint().tape(), 0);
    expect(rugVector(f)).toEqual(RUG_FEATURE_KEYS.map(() => 0));
  });
});

describe('rug_prob', () => {
  it('is null while warming, on an empty corpus and below the minimum', () => {
    expect(fitRugModel([], { ageBucket: 30 }).score(rugFeatures(0.1))).toBeNull();
    const small = fitRugModel(
      Array.from({ length: MIN_RUG_CORPUS - 1 }, (_, i) => rugRow(i, rugFeatures(0.1), true)),
      { ageBucket: 30 },
    );
    expect(small.status).toBe('warming');
    expect(small.score(rugFeatures(0.1))).toBeNull();
  });

  it('does not saturate when every neighbour rugged, nor read 0 when none did', () => {
    const all = fitRugModel(
      Array.from({ length: 250 }, (_, i) => rugRow(i, rugFeatures(0.3), true)),
      { ageBucket: 30 },
    );
    const p = all.score(rugFeatures(0.3))!;
    expect(p).toBeLessThan(1);
    expect(p).toBeGreaterThan(0.9);
    const none = fitRugModel(
      Array.from({ length: 250 }, (_, i) => rugRow(i, rugFeatures(0), false)),
      { ageBucket: 30 },
    );
    const q = none.score(rugFeatures(0))!;
    expect(q).toBeGreaterThan(0);
    expect(q).toBeLessThan(0.02);
  });

  it('separates bundled, dumping launches from clean ones, calibrated on the later slice', () => {
    const rng = new SeededRandom(5);
    const corpus = Array.from({ length: 3000 }, (_, i) => {
      const bundled = rng.chance(0.25);
      return rugRow(
        i,
        rugFeatures(bundled ? rng.uniform(0.15, 0.4) : rng.uniform(0, 0.05), bundled ? rng.uniform(0.3, 1) : 0),
        bundled ? rng.chance(0.7) : rng.chance(0.05),
      );
    });
    const model = fitRugModel(corpus, { ageBucket: 30 });
    expect(model.status).toBe('live');
    expect(model.labels[0]!.calibration.method).toBe('isotonic');
    expect(model.labels[0]!.calibration.samples).toBe(900);
    const risky = model.score(rugFeatures(0.3, 0.8))!;
    const clean = model.score(rugFeatures(0.01))!;
    expect(risky).toBeGreaterThan(0.4);
    expect(clean).toBeLessThan(0.15);
    expect(model.version).toMatch(/^rug-knn-v1@30:3000:/);
  });
});

describe('post_grad_survival', () => {
  const features = (vSolSol: number): MintFeatures => ({
    vSolSol,
    vSolGrowthSol: vSolSol - 30,
    logTrades: 3,
    logUniqueBuyers: 2.5,
    topBuyerShare: 0.2,
    currentMult: (vSolSol / 30) ** 2,
    buyCount: 10,
    sellCount: 3,
    uniqueBuyers: 9,
    creatorSold: false,
  });
  const row = (i: number, v: number, sustained: boolean): SurvivalCorpusRow => ({
    mint: `g${i}`,
    ageBucket: 60,
    features: features(v),
    sustained,
    observedAt: new Date(T0 + i * 60_000),
  });

  it('is null until it has seen enough graduates with a known outcome', () => {
    expect(fitSurvivalModel([], { ageBucket: 60 }).score(features(50))).toBeNull();
    const few = fitSurvivalModel(
      Array.from({ length: MIN_SURVIVAL_CORPUS - 1 }, (_, i) => row(i, 50, true)),
      { ageBucket: 60 },
    );
    expect(few.score(features(50))).toBeNull();
  });

  it('leans toward the sustain rate of similar graduates, never 0 or 1', () => {
    const corpus = Array.from({ length: 80 }, (_, i) => row(i, i % 2 ? 60 : 40, i % 2 === 1));
    const model = fitSurvivalModel(corpus, { ageBucket: 60 });
    const strong = model.score(features(60))!;
    const weak = model.score(features(40))!;
    expect(strong).toBeGreaterThan(weak);
    expect(strong).toBeLessThan(1);
    expect(weak).toBeGreaterThan(0);
  });
});
