import { ageReport, runnerOddsCalibration } from '../../domain/backtest/backtest-report';
import { auc, brierScore, calibrationTable, expectedCalibrationError, positiveRate, thresholdBands, type Scored } from '../../domain/backtest/forward-metrics';
import type { ForwardPrediction } from '../../domain/backtest/walk-forward';
import { CONFIDENCE_BANDS } from '../../domain/scoring/confidence-band';

const s = (prob: number, label: boolean): Scored => ({ prob, label });

describe('AUC', () => {
  it('is 1 for a perfect ranking, 0 for a reversed one, 0.5 when every score ties', () => {
    expect(auc([s(0.9, true), s(0.8, true), s(0.2, false), s(0.1, false)])).toBe(1);
    expect(auc([s(0.1, true), s(0.9, false)])).toBe(0);
    expect(auc([s(0.3, true), s(0.3, false), s(0.3, false)])).toBe(0.5);
  });

  it('counts a tie between a positive and a negative as one half', () => {
    // Pairs (pos, neg): (0.8, 0.5) win, (0.8, 0.2) win, (0.5, 0.5) tie, (0.5, 0.2) win → 3.5 / 4.
    expect(auc([s(0.8, true), s(0.5, true), s(0.5, false), s(0.2, false)])).toBe(0.875);
    // One positive at 0.4 among negatives 0.1, 0.4, 0.4, 0.7: 1 win, 2 ties, 1 loss → 2 / 4.
    expect(auc([s(0.1, false), s(0.4, false), s(0.4, true), s(0.4, false), s(0.7, false)])).toBe(0.5);
  });

  it('agrees with counting every pair', () => {
    const xs = [0.1, 0.4, 0.35, 0.8, 0.4, 0.05, 0.6, 0.6, 0.9, 0.2].map((p, i) => s(p, [1, 3, 4, 7, 8].includes(i)));
    let wins = 0;
    let pairs = 0;
    for (const a of xs.filter((x) => x.label)) {
      for (const b of xs.filter((x) => !x.label)) {
        pairs++;
        wins += a.prob > b.prob ? 1 : a.prob === b.prob ? 0.5 : 0;
      }
    }
    expect(auc(xs)).toBeCloseTo(wins / pairs, 12);
  });

  it('does not exist without both classes, or without predictions', () => {
    expect(auc([])).toBeNull();
    expect(auc([s(0.2, true), s(0.9, true)])).toBeNull();
    expect(auc([s(0.2, false)])).toBeNull();
  });
});

describe('Brier score', () => {
  it('is the mean squared error of the probabilities', () => {
    expect(brierScore([s(1, true), s(0, false)])).toBe(0);
    expect(brierScore([s(0.5, true), s(0.5, false)])).toBe(0.25);
    // (0.9−1)², (0.2−0)², (0.6−0)² → (0.01 + 0.04 + 0.36) / 3.
    expect(brierScore([s(0.9, true), s(0.2, false), s(0.6, false)])).toBeCloseTo(0.41 / 3, 12);
    expect(brierScore([])).toBeNull();
    expect(() => brierScore([s(1.2, true)])).toThrow(RangeError);
  });
});

describe('expected calibration error', () => {
  it('is zero when each bin’s mean probability equals its observed rate', () => {
    const xs = [s(0.25, true), s(0.25, false), s(0.25, false), s(0.25, false), s(0.95, true), s(0.95, true)];
    // Bin [0.2, 0.3): mean 0.25, rate 0.25. Bin [0.9, 1]: mean 0.95, rate 1 → |0.05| × 2/6.
    expect(expectedCalibrationError(xs)).toBeCloseTo((2 / 6) * 0.05, 12);
    expect(expectedCalibrationError([s(0.5, true), s(0.5, false)])).toBe(0);
  });

  it('weights each bin by its share of predictions, and puts 1 in the last bin', () => {
    const xs = [s(0.05, false), s(0.05, false), s(0.05, true), s(1, false)];
    // Bin 0: mean 0.05, rate 1/3 → 3/4 × 0.2833…; last bin: mean 1, rate 0 → 1/4 × 1.
    expect(expectedCalibrationError(xs)).toBeCloseTo(0.75 * (1 / 3 - 0.05) + 0.25, 12);
    expect(expectedCalibrationError(xs, 1)).toBeCloseTo(Math.abs((0.05 * 3 + 1) / 4 - 1 / 4), 12);
  });

  it('does not exist without predictions, and refuses bad input', () => {
    expect(expectedCalibrationError([])).toBeNull();
    expect(() => expectedCalibrationError([s(-0.1, false)])).toThrow(RangeError);
    expect(() => expectedCalibrationError([s(0.1, false)], 0)).toThrow(RangeError);
  });
});

describe('threshold bands and calibration cells', () => {
  const xs = [s(0.95, true), s(0.9, false), s(0.75, true), s(0.7, true), s(0.69, false), s(0.5, false), s(0.1, false)];

  it('counts predictions at or above each threshold and how many came true', () => {
    expect(thresholdBands(xs, [0.5, 0.7, 0.9])).toEqual([
      { threshold: 0.5, count: 6, positives: 3, precision: 0.5 },
      { threshold: 0.7, count: 4, positives: 3, precision: 0.75 },
      { threshold: 0.9, count: 2, positives: 1, precision: 0.5 },
    ]);
    expect(thresholdBands([s(0.2, true)], [0.5])).toEqual([{ threshold: 0.5, count: 0, positives: 0, precision: null }]);
  });

  it('groups by confidence cell, the last one closed at 1', () => {
    const table = calibrationTable([...xs, s(1, true)], CONFIDENCE_BANDS);
    expect(table.map((c) => c.n)).toEqual([0, 0, 1, 0, 2, 2, 3]);
    const top = table[table.length - 1]!;
    expect(top.meanProb).toBeCloseTo((0.95 + 0.9 + 1) / 3, 12);
    expect(top.actualRate).toBeCloseTo(2 / 3, 12);
    expect(table[0]).toEqual({ lo: 0, hi: 0.05, n: 0, meanProb: null, actualRate: null });
    expect(positiveRate([])).toBeNull();
  });
});

describe('age report', () => {
  const pred = (prob: number, graduated: boolean, peakMultFromCall: number): ForwardPrediction => ({
    mint: `m${prob}`,
    observedAt: new Date(0),
    prob,
    raw: prob,
    graduated,
    peakMultFromCall,
    modelVersion: 'v',
    corpusSize: 10,
  });

  it('puts the measures together, with runner rates measured from the call', () => {
    const r = ageReport(30, [pred(0.8, true, 12), pred(0.3, false, 2.5), pred(0.1, false, 1)]);
    expect(r).toMatchObject({ ageS: 30, predictions: 3, graduated: 1, auc: 1 });
    expect(r.baseRate).toBeCloseTo(1 / 3, 12);
    // Always answering 1/3: (2/3)² once, (1/3)² twice.
    expect(r.brierOfBaseRate).toBeCloseTo((4 / 9 + 2 / 9) / 3, 12);
    expect(r.runnerRatesFromCall.map((t) => [t.tier, t.rate])).toEqual([
      [2, 2 / 3],
      [3, 1 / 3],
      [5, 1 / 3],
      [10, 1 / 3],
      [20, 0],
    ]);
  });

  it('reports nothing but nulls and zeros for no predictions', () => {
    const r = ageReport(60, []);
    expect(r).toMatchObject({ predictions: 0, graduated: 0, baseRate: null, auc: null, brier: null, brierOfBaseRate: null, ece: null });
    expect(r.bands.every((b) => b.count === 0 && b.precision === null)).toBe(true);
    expect(r.runnerRatesFromCall.every((t) => t.rate === null)).toBe(true);
  });

  it('scores runner odds per tier against the from-call peak', () => {
    const probs = { 2: 0.5, 3: 0.3, 5: 0.1, 10: 0.05, 20: 0.01 };
    const [x2, , x5] = runnerOddsCalibration([
      { runnerProbs: probs, peakMultFromCall: 2.2 },
      { runnerProbs: probs, peakMultFromCall: 1.1 },
    ]);
    expect(x2).toMatchObject({ tier: 2, n: 2, observedRate: 0.5, meanProb: 0.5, brier: 0.25 });
    expect(x5).toMatchObject({ tier: 5, n: 2, observedRate: 0 });
    expect(x5!.brier).toBeCloseTo(0.01, 12);
    expect(runnerOddsCalibration([])[0]).toEqual({ tier: 2, n: 0, observedRate: null, meanProb: null, brier: null, ece: null });
  });
});
