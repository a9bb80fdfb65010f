import { RUNNER_TIERS, tierKey } from '../../../domain/scoring/runner-model';
import { fitRunnerNowModel, MIN_RUNNER_NOW_CORPUS, type RunnerNowMetric, type RunnerNowRow } from '../../../domain/scoring/runner-now-model';
import type { RunnerNowFeatures } from '../../../domain/scoring/runner-now-features';
import { SeededRandom } from '../../../ingest/simulator/seeded-random';

const T0 = Date.parse('2026-10-01T00:00:00Z');
const f = (logMult: number, offPeak = 1): RunnerNowFeatures => ({
  logMult,
  logTrades: 3,
  logBuyers: 2,
  topHolderShare: 0.2,
  sellShare: 0.2,
  offPeak,
  vSolAdded60sSol: 1,
  creatorSold: 0,
});
const row = (i: number, features: RunnerNowFeatures, peakMult: number): RunnerNowRow => ({
  mint: `m${String(i).padStart(5, '0')}`,
  ageS: 300,
  features,
  peakMult,
  observedAt: new Date(T0 + i * 60_000),
});

describe('runner odds from now, at any grid age', () => {
  it('publishes nothing while warming', () => {
    const m = fitRunnerNowModel(
      Array.from({ length: MIN_RUNNER_NOW_CORPUS - 1 }, (_, i) => row(i, f(1), 3)),
      { ageS: 300 },
    );
    expect(m.status).toBe('warming');
    expect(m.score(f(1))).toBeNull();
    expect(m.version).toMatch(/^runner-now-v1\/z@300:199:[0-9a-f]+$/);
  });

  it('learns from the neighbours at the age: mints near their peak ran on, mints off it did not; tiers never cross', () => {
    const rnd = new SeededRandom(7);
    const corpus = Array.from({ length: 2000 }, (_, i) => {
      const atPeak = i % 2 === 0;
      const runs = rnd.float() < (atPeak ? 0.6 : 0.05);
      return row(
        i,
        f(1 + rnd.float() * 0.2, atPeak ? 0.95 + rnd.float() * 0.05 : 0.3 + rnd.float() * 0.1),
        runs ? 2 + rnd.float() * 30 : 1 + rnd.float() * 0.5,
      );
    });
    const m = fitRunnerNowModel(corpus, { ageS: 300 });
    const hot = m.score(f(1.1, 0.98))!;
    const cold = m.score(f(1.1, 0.35))!;
    expect(hot['2x']).toBeGreaterThan(0.4);
    expect(cold['2x']).toBeLessThan(0.15);
    for (const odds of [hot, cold])
      for (let i = 1; i < RUNNER_TIERS.length; i++) expect(odds[tierKey(RUNNER_TIERS[i]!)]).toBeLessThanOrEqual(odds[tierKey(RUNNER_TIERS[i - 1]!)]);
  });

  it('takes another metric: a metric that ignores the drawdown cannot tell the two apart, and says so in its version', () => {
    const corpus = Array.from({ length: 600 }, (_, i) => row(i, f(1, i % 2 ? 1 : 0.3), i % 2 ? 10 : 1));
    const blind: RunnerNowMetric = { name: 'no-offpeak', dims: 1, vectorOf: (x) => [x.logMult] };
    const m = fitRunnerNowModel(corpus, { ageS: 300, metric: blind });
    expect(m.version).toMatch(/^runner-now-v1\/no-offpeak@300:600:/);
    expect(m.score(f(1, 1))!['2x']).toBeCloseTo(m.score(f(1, 0.3))!['2x'], 12);
    const seeing = fitRunnerNowModel(corpus, { ageS: 300 });
    expect(seeing.score(f(1, 1))!['2x']).toBeGreaterThan(0.8);
    expect(seeing.score(f(1, 0.3))!['2x']).toBeLessThan(0.2);
  });

  it('refuses rows of another age and labels that are not positive numbers', () => {
    expect(() => fitRunnerNowModel([{ ...row(0, f(1), 2), ageS: 60 }], { ageS: 300 })).toThrow(/age 60/);
    expect(() => fitRunnerNowModel([row(0, f(1), 0)], { ageS: 300 })).toThrow(/positive/);
  });
});
