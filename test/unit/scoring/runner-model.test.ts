import type { MintFeatures } from '../../../domain/scoring/mint-features';
import { fitRunnerModel, fitRunnerModelSteps, MIN_RUNNER_CORPUS, RUNNER_TIERS, tierKey, type RunnerCorpusRow } from '../../../domain/scoring/runner-model';
import { runSteps, runStepsAsync } from '../../../domain/scoring/stepwise';
import { SeededRandom } from '../../../ingest/simulator/seeded-random';

const T0 = Date.parse('2026-10-01T00:00:00Z');
const features = (vSolSol: number, currentMult = (vSolSol / 30) ** 2): MintFeatures => ({
  vSolSol,
  vSolGrowthSol: vSolSol - 30,
  logTrades: 2,
  logUniqueBuyers: 1.5,
  topBuyerShare: 0.3,
  currentMult,
  buyCount: 5,
  sellCount: 2,
  uniqueBuyers: 4,
  creatorSold: false,
});
const row = (i: number, f: MintFeatures, peakMult: number): RunnerCorpusRow => ({
  mint: `m${String(i).padStart(5, '0')}`,
  ageBucket: 60,
  features: f,
  peakMult,
  observedAt: new Date(T0 + i * 60_000),
});

describe('runner odds from now', () => {
  it('publishes nothing on an empty corpus or below the minimum, and says it is warming', () => {
    const empty = fitRunnerModel([], { ageBucket: 60 });
    expect(empty.status).toBe('warming');
    expect(empty.score(features(40))).toBeNull();
    const small = fitRunnerModel(
      Array.from({ length: MIN_RUNNER_CORPUS - 1 }, (_, i) => row(i, features(40), 3)),
      { ageBucket: 60 },
    );
    expect(small.status).toBe('warming');
    expect(small.score(features(40))).toBeNull();
    expect(small.version).toMatch(/^runner-knn-v1@60:199:[0-9a-f]{14}$/);
  });

  it('does not saturate when every neighbour went 20x: shrunk toward the tier base rate, strictly below 1', () => {
    // 250 rows: too few for a calibration slice, so the shrunk neighbour rate. Every one ran 20x from its own price.
    const corpus = Array.from({ length: 250 }, (_, i) => row(i, features(40 + (i % 7) * 0.1), 25));
    const odds = fitRunnerModel(corpus, { ageBucket: 60 }).score(features(40))!;
    for (const t of RUNNER_TIERS) {
      expect(odds[tierKey(t)]).toBeLessThan(1);
      expect(odds[tierKey(t)]).toBeGreaterThan(0.9);
    }
  });

  it('does not read 0 where no neighbour ran', () => {
    const corpus = Array.from({ length: 250 }, (_, i) => row(i, features(40), 1.2));
    const odds = fitRunnerModel(corpus, { ageBucket: 60 }).score(features(40))!;
    expect(odds['2x']).toBeGreaterThan(0);
    expect(odds['2x']).toBeLessThan(0.02);
  });

  it('counts a neighbour by its peak after the scoring age, never by its multiple from launch', () => {
    // Every neighbour already stood at 10x its launch price when observed, and then never rose again.
    const corpus = Array.from({ length: 300 }, (_, i) => row(i, features(40, 10), 1));
    const odds = fitRunnerModel(corpus, { ageBucket: 60 }).score(features(40, 10))!;
    expect(odds['2x']).toBeLessThan(0.02);
  });

  it('keeps odds non-increasing across tiers and separates mints that ran from those that did not', () => {
    const rng = new SeededRandom(11);
    const corpus = Array.from({ length: 3000 }, (_, i) => {
      const hot = rng.chance(0.2);
      const v = hot ? rng.uniform(45, 55) : rng.uniform(30, 40);
      // Hot mints run 1.5x–30x; cold ones rarely double.
      return row(i, features(v), hot ? Math.exp(rng.uniform(Math.log(1.5), Math.log(30))) : rng.chance(0.05) ? 2.5 : 1.1);
    });
    const model = fitRunnerModel(corpus, { ageBucket: 60 });
    expect(model.status).toBe('live');
    expect(model.labels.every((l) => l.calibration.method === 'isotonic')).toBe(true);
    const hot = model.score(features(50))!;
    const cold = model.score(features(33))!;
    expect(hot['2x']).toBeGreaterThan(3 * cold['2x']);
    expect(hot['5x']).toBeGreaterThan(cold['5x']);
    for (const odds of [hot, cold, model.score(features(42))!]) {
      const xs = RUNNER_TIERS.map((t) => odds[tierKey(t)]);
      for (let i = 1; i < xs.length; i++) expect(xs[i]).toBeLessThanOrEqual(xs[i - 1]!);
      for (const x of xs) expect(x > 0 && x < 1).toBe(true);
    }
  });

  it('gives the same model fitted in one go or a step at a time with the event loop free in between', async () => {
    const rng = new SeededRandom(3);
    const corpus = Array.from({ length: 1200 }, (_, i) => row(i, features(rng.uniform(30, 55)), Math.exp(rng.uniform(0, 3))));
    let pauses = 0;
    const stepped = await runStepsAsync(fitRunnerModelSteps(corpus, { ageBucket: 60 }), async () => {
      pauses++;
      await new Promise((r) => setImmediate(r));
    });
    const whole = runSteps(fitRunnerModelSteps(corpus, { ageBucket: 60 }));
    expect(pauses).toBeGreaterThan(3);
    expect(stepped.version).toBe(whole.version);
    expect(stepped.score(features(44))).toEqual(whole.score(features(44)));
  });

  it('refuses a row without a positive peak multiple', () => {
    expect(() => fitRunnerModel([row(0, features(40), Number.NaN)], { ageBucket: 60 })).toThrow(RangeError);
    expect(() => fitRunnerModel([row(0, features(40), 2)], { ageBucket: 30 })).toThrow(RangeError);
  });
});
