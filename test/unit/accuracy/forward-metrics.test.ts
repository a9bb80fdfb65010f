import { auc, brier, calibrationCells, expectedCalibrationError, thresholdBands, type Scored } from '../../../domain/accuracy/forward-metrics';
import { evaluateSurvivalGate, SURVIVAL_GATE } from '../../../domain/accuracy/survival-gate';
import { SeededRandom } from '../../../ingest/simulator/seeded-random';

const s = (prob: number, label: boolean): Scored => ({ prob, label });

/** AUC by definition: over every (positive, negative) pair, 1 when the positive scores higher, ½ on a tie. */
function pairwiseAuc(xs: Scored[]): number {
  const pos = xs.filter((x) => x.label);
  const neg = xs.filter((x) => !x.label);
  let sum = 0;
  for (const p of pos) for (const n of neg) sum += p.prob > n.prob ? 1 : p.prob === n.prob ? 0.5 : 0;
  return sum / (pos.length * neg.length);
}

describe('forward metrics', () => {
  it('answer null where undefined', () => {
    expect(brier([])).toBeNull();
    expect(auc([])).toBeNull();
    expect(auc([s(0.2, true), s(0.9, true)])).toBeNull();
    expect(expectedCalibrationError([])).toBeNull();
    expect(thresholdBands([])).toEqual([
      { minProb: 0.5, n: 0, positives: 0, precision: null },
      { minProb: 0.7, n: 0, positives: 0, precision: null },
      { minProb: 0.9, n: 0, positives: 0, precision: null },
    ]);
  });

  it('compute Brier and AUC of hand-built cases', () => {
    const xs = [s(0.9, true), s(0.8, false), s(0.3, true), s(0.1, false)];
    expect(brier(xs)).toBeCloseTo((0.01 + 0.64 + 0.49 + 0.01) / 4, 12);
    // Pairs: (0.9>0.8) (0.9>0.1) (0.3<0.8) (0.3>0.1): 3 of 4.
    expect(auc(xs)).toBe(0.75);
    expect(auc([s(0.5, true), s(0.5, false)])).toBe(0.5);
  });

  it('agree with the pairwise definition of AUC, ties included', () => {
    const rng = new SeededRandom(9);
    const xs = Array.from({ length: 400 }, () => {
      const p = Math.round(rng.uniform(0, 1) * 20) / 20; // many ties
      return s(p, rng.chance(p));
    });
    expect(auc(xs)).toBeCloseTo(pairwiseAuc(xs), 12);
  });

  it('measure calibration error per equal-width bin, weighted by share', () => {
    // Bin [0.1, 0.2): mean 0.15, rate 0.5 → 0.35; bin [0.9, 1]: mean 0.95, rate 1 → 0.05.
    const xs = [s(0.1, true), s(0.2 - 1e-9, false), s(0.95, true), s(1, true)];
    expect(expectedCalibrationError(xs)).toBeCloseTo(0.5 * Math.abs(0.15 - 0.5) + 0.5 * Math.abs(0.975 - 1), 6);
    expect(expectedCalibrationError(Array.from({ length: 10 }, (_, i) => s(0.3, i < 3)))).toBeCloseTo(0, 12);
  });

  it('count precision at or above each threshold band', () => {
    const xs = [s(0.95, true), s(0.9, false), s(0.7, true), s(0.69, true), s(0.5, false), s(0.2, true)];
    expect(thresholdBands(xs)).toEqual([
      { minProb: 0.5, n: 5, positives: 3, precision: 0.6 },
      { minProb: 0.7, n: 3, positives: 2, precision: 2 / 3 },
      { minProb: 0.9, n: 2, positives: 1, precision: 0.5 },
    ]);
  });

  it('fill every confidence cell, empty ones with n 0 and null rates', () => {
    const cells = calibrationCells([s(0.01, false), s(0.03, true), s(0.95, true)]);
    expect(cells).toHaveLength(7);
    expect(cells[0]).toMatchObject({ band: { lo: 0, hi: 0.05 }, n: 2, positives: 1, actualRate: 0.5 });
    expect(cells[0]!.meanPredicted).toBeCloseTo(0.02, 12);
    expect(cells[3]).toMatchObject({ n: 0, meanPredicted: null, actualRate: null });
    expect(cells[6]).toMatchObject({ band: { lo: 0.9, hi: 1 }, n: 1, actualRate: 1 });
  });
});

describe('survival auto-lift gate', () => {
  const now = new Date('2026-11-20T00:00:00Z');
  const calibrated = (n: number, seed = 1) => {
    const rng = new SeededRandom(seed);
    // Scores at 0.25 and 0.75, outcomes at exactly those rates: perfectly calibrated.
    return Array.from({ length: n }, (_, i) => (i % 2 ? s(0.75, i % 8 !== 1) : s(0.25, i % 8 === 0))).map((x) => ({
      ...x,
      prob: x.prob + rng.uniform(-1e-6, 1e-6),
    }));
  };

  it('stays suspended below the minimum sample, whatever the calibration', () => {
    const g = evaluateSurvivalGate(null, calibrated(SURVIVAL_GATE.minN - 8), now);
    expect(g).toMatchObject({ state: 'suspended', since: now });
    expect(g.reason).toContain(`${SURVIVAL_GATE.minN - 8} of the ${SURVIVAL_GATE.minN}`);
    expect(g.evidence.calibration_error).toBeLessThan(0.01);
    expect(evaluateSurvivalGate(null, [], now).evidence).toMatchObject({ n: 0, calibration_error: null });
  });

  it('lifts itself once enough resolved graduates show it calibrated, and dates the change', () => {
    const before = evaluateSurvivalGate(null, calibrated(100), now);
    const later = new Date(now.getTime() + 3_600_000);
    const lifted = evaluateSurvivalGate(before, calibrated(SURVIVAL_GATE.minN), later);
    expect(lifted).toMatchObject({ state: 'live', since: later, reason: null });
    const stillLive = evaluateSurvivalGate(lifted, calibrated(SURVIVAL_GATE.minN + 40), new Date(later.getTime() + 60_000));
    expect(stillLive.since).toEqual(later);
  });

  it('suspends again when the scores drift out of calibration', () => {
    const live = evaluateSurvivalGate(null, calibrated(400), now);
    expect(live.state).toBe('live');
    const overconfident = Array.from({ length: 400 }, (_, i) => s(0.9, i % 2 === 0)); // says 90%, happens 50%
    const g = evaluateSurvivalGate(live, overconfident, new Date(now.getTime() + 60_000));
    expect(g.state).toBe('suspended');
    expect(g.evidence.calibration_error).toBeCloseTo(0.4, 6);
    expect(g.reason).toContain('exceeds');
  });
});
