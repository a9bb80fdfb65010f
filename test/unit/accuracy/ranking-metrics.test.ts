import { auprc, baseRate, logLoss, pointLogLoss, LOG_LOSS_EPS, type Scored } from '../../../domain/accuracy/forward-metrics';
import { LIFT_THRESHOLDS, VSOL_BANDS, vsolLift } from '../../../domain/accuracy/vsol-lift';

const s = (prob: number, label: boolean): Scored => ({ prob, label });

describe('AUPRC (average precision)', () => {
  it('is 1 when every positive ranks above every negative, and the precision at each positive otherwise', () => {
    expect(auprc([s(0.9, true), s(0.8, true), s(0.1, false)])).toBe(1);
    // Ranked: +, -, +, -: precision 1 at the first positive, 2/3 at the second; each adds half the recall.
    expect(auprc([s(0.9, true), s(0.7, false), s(0.5, true), s(0.1, false)])).toBeCloseTo(0.5 * 1 + 0.5 * (2 / 3), 12);
  });

  it('takes tied scores together, so a constant score earns exactly the base rate', () => {
    const xs = [s(0.3, true), s(0.3, false), s(0.3, false), s(0.3, false)];
    expect(auprc(xs)).toBe(0.25);
    expect(baseRate(xs)).toBe(0.25);
  });

  it('is null without a positive', () => {
    expect(auprc([s(0.2, false)])).toBeNull();
    expect(auprc([])).toBeNull();
  });
});

describe('log loss', () => {
  it('is the mean negative log likelihood in nats', () => {
    expect(logLoss([s(0.8, true), s(0.2, false)])).toBeCloseTo(-Math.log(0.8), 12);
    expect(logLoss([s(0.5, true)])).toBeCloseTo(Math.log(2), 12);
  });

  it('clips certainty, so one confident miss costs ln(1/eps), not infinity', () => {
    expect(pointLogLoss(0, true)).toBeCloseTo(-Math.log(LOG_LOSS_EPS), 9);
    expect(pointLogLoss(1, false)).toBeCloseTo(-Math.log(LOG_LOSS_EPS), 6);
    expect(logLoss([])).toBeNull();
  });
});

describe('lift within virtual-SOL bands', () => {
  it('compares the rate at or above each level with the whole band’s, band by band', () => {
    const xs = [
      // Band [32, 36): 4 mints, 1 graduated; the one scored 0.6 graduated.
      { prob: 0.6, label: true, vSolSol: 33 },
      { prob: 0.2, label: false, vSolSol: 34 },
      { prob: 0.02, label: false, vSolSol: 35 },
      { prob: 0.01, label: false, vSolSol: 32 },
      // Open top band: one graduate scored low.
      { prob: 0.01, label: true, vSolSol: 100 },
    ];
    const bands = vsolLift(xs);
    expect(bands.map((b) => [b.v_sol_lo, b.v_sol_hi])).toEqual(VSOL_BANDS.map((b) => [b.lo, b.hi]));
    expect(bands.reduce((n, b) => n + b.n, 0)).toBe(xs.length);
    const b = bands.find((x) => x.v_sol_lo === 32)!;
    expect(b).toMatchObject({ n: 4, graduated: 1, base_rate: 0.25 });
    expect(b.thresholds.map((t) => t.min_prob)).toEqual([...LIFT_THRESHOLDS]);
    expect(b.thresholds.find((t) => t.min_prob === 0.5)).toEqual({ min_prob: 0.5, n: 1, graduated: 1, precision: 1, lift: 4 });
    expect(b.thresholds.find((t) => t.min_prob === 0.1)).toEqual({ min_prob: 0.1, n: 2, graduated: 1, precision: 0.5, lift: 2 });
    const top = bands.find((x) => x.v_sol_hi === null)!;
    expect(top.thresholds.find((t) => t.min_prob === 0.05)).toEqual({ min_prob: 0.05, n: 0, graduated: 0, precision: null, lift: null });
    expect(bands.find((x) => x.v_sol_lo === 0)).toMatchObject({ n: 0, base_rate: null });
  });
});
