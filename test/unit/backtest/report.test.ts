import { ageReport, runnerOddsCalibration } from '../../../domain/backtest/backtest-report';
import type { ForwardPrediction } from '../../../domain/backtest/walk-forward';
import type { RunnerOdds } from '../../../domain/scoring/runner-model';

// The metric functions themselves are the accuracy page's (test/unit/accuracy/forward-metrics.test.ts).
const odds = (x2: number, x3: number, x5: number, x10: number, x20: number): RunnerOdds => ({ '2x': x2, '3x': x3, '5x': x5, '10x': x10, '20x': x20 });
const pred = (prob: number, graduated: boolean, peakMultFromCall: number, runnerOdds: RunnerOdds | null = null): ForwardPrediction => ({
  mint: `m${prob}`,
  observedAt: new Date(0),
  prob,
  raw: prob,
  graduated,
  resolvedAt: new Date(86_400_000),
  fittedAt: new Date(0),
  peakMultFromCall,
  modelVersion: 'v',
  corpusSize: 10,
  runnerOdds,
});

describe('backtest age report', () => {
  it('puts the measures together, with runner rates measured from the call', () => {
    const r = ageReport(30, [pred(0.8, true, 12), pred(0.3, false, 2.5), pred(0.1, false, 1)]);
    expect(r).toMatchObject({ ageS: 30, predictions: 3, graduated: 1, auc: 1 });
    expect(r.baseRate).toBeCloseTo(1 / 3, 12);
    expect(r.brier).toBeCloseTo((0.04 + 0.09 + 0.01) / 3, 12);
    // Always answering 1/3: (2/3)² once, (1/3)² twice.
    expect(r.brierOfBaseRate).toBeCloseTo((4 / 9 + 2 / 9) / 3, 12);
    expect(r.bands.map((b) => [b.minProb, b.n, b.positives])).toEqual([
      [0.5, 1, 1],
      [0.7, 1, 1],
      [0.9, 0, 0],
    ]);
    expect(r.calibration.reduce((n, c) => n + c.n, 0)).toBe(3);
    expect(r.runnerRatesFromCall.map((t) => [t.tier, t.rate])).toEqual([
      [2, 2 / 3],
      [3, 1 / 3],
      [5, 1 / 3],
      [10, 1 / 3],
      [20, 0],
    ]);
    // No runner odds were published: nothing to calibrate, no invented figure.
    expect(r.runnerOdds.every((t) => t.n === 0 && t.brier === null && t.observedRate === null)).toBe(true);
  });

  it('reports nothing but nulls and zeros for no predictions', () => {
    const r = ageReport(60, []);
    expect(r).toMatchObject({ predictions: 0, graduated: 0, baseRate: null, auc: null, brier: null, brierOfBaseRate: null, ece: null });
    expect(r.bands.every((b) => b.n === 0 && b.precision === null)).toBe(true);
    expect(r.runnerRatesFromCall.every((t) => t.rate === null)).toBe(true);
  });

  it('scores runner odds per tier against the from-call peak, over the predictions that had odds', () => {
    const o = odds(0.5, 0.3, 0.1, 0.05, 0.01);
    const [x2, , x5] = runnerOddsCalibration([pred(0.1, false, 2.2, o), pred(0.1, false, 1.1, o), pred(0.1, false, 30, null)]);
    expect(x2).toMatchObject({ tier: 2, n: 2, observedRate: 0.5, meanProb: 0.5, brier: 0.25, auc: 0.5 });
    expect(x5).toMatchObject({ tier: 5, n: 2, observedRate: 0, auc: null });
    expect(x5!.brier).toBeCloseTo(0.01, 12);
    expect(runnerOddsCalibration([])[0]).toEqual({ tier: 2, n: 0, observedRate: null, meanProb: null, auc: null, brier: null, ece: null });
  });
});
