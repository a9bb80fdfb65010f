import { auc } from '../../../domain/accuracy/forward-metrics';
import { auprc, logLoss } from '../../../domain/accuracy/forward-metrics';
import { fitLogistic } from '../../../domain/scoring/logistic-regression';
import { SeededRandom } from '../../../ingest/simulator/seeded-random';

describe('L2 logistic regression (the learned metric’s weights and the backtest reference)', () => {
  it('recovers the informative feature on rare positives with a heavy-tailed noise feature, and stays finite', () => {
    const rng = new SeededRandom(3);
    const xs: number[][] = [];
    const ys: boolean[] = [];
    for (let i = 0; i < 20_000; i++) {
      const signal = rng.uniform(-3, 3);
      const heavy = rng.chance(0.001) ? 1e6 : rng.uniform(0, 1);
      xs.push([signal, heavy, 5]);
      ys.push(rng.chance(1 / (1 + Math.exp(-(2 * signal - 6)))));
    }
    const lr = fitLogistic(xs, ys);
    expect(Math.abs(lr.coef[0]!)).toBeGreaterThan(5 * Math.abs(lr.coef[1]!));
    expect(lr.coef[2]).toBeCloseTo(0, 12); // a constant feature carries nothing
    const scored = xs.map((x, i) => ({ prob: lr.predict(x), label: ys[i]! }));
    for (const s of scored) expect(s.prob > 0 && s.prob < 1).toBe(true);
    expect(auc(scored)!).toBeGreaterThan(0.85);
    const base = ys.filter(Boolean).length / ys.length;
    expect(logLoss(scored)!).toBeLessThan(logLoss(scored.map((s) => ({ ...s, prob: base })))!);
  });

  it('answers the base rate on an empty feature set', () => {
    const lr = fitLogistic([[], [], [], []], [true, false, false, false]);
    expect(lr.predict([])).toBeCloseTo(0.25, 6);
  });
});

describe('probability metrics', () => {
  it('log loss and average precision on hand-counted cases', () => {
    expect(logLoss([{ prob: 0.5, label: true }])).toBeCloseTo(Math.log(2), 12);
    expect(logLoss([])).toBeNull();
    // Positives at ranks 1 and 3: AP = (1/2)(1/1) + (1/2)(2/3).
    const xs = [
      { prob: 0.9, label: true },
      { prob: 0.8, label: false },
      { prob: 0.7, label: true },
      { prob: 0.1, label: false },
    ];
    expect(auprc(xs)).toBeCloseTo(0.5 + 1 / 3, 12);
    // A tie is one step: both at the same score, precision 1/2 for the one positive.
    expect(
      auprc([
        { prob: 0.5, label: true },
        { prob: 0.5, label: false },
      ]),
    ).toBeCloseTo(0.5, 12);
    expect(auprc([{ prob: 0.5, label: false }])).toBeNull();
  });
});
