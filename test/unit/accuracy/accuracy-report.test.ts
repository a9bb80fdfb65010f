import { buildAccuracyReport, survivalForward, sustainLabels, type ForwardPrediction } from '../../../domain/accuracy/accuracy-report';
import { evaluateSurvivalGate } from '../../../domain/accuracy/survival-gate';

const now = new Date('2026-11-20T00:00:00Z');
const at = (h: number) => new Date(now.getTime() - h * 3_600_000);
const odds = (p: number) => ({ '2x': p, '3x': p / 2, '5x': p / 4, '10x': p / 8, '20x': p / 16 });

function pred(mint: string, ageBucket: number, gradProb: number, o: Partial<ForwardPrediction> = {}): ForwardPrediction {
  return {
    mint,
    ageBucket,
    predictedAt: at(30),
    gradProb,
    gradVersion: 'knn-v1@30:500:aaaa',
    rugProb: null,
    rugVersion: null,
    runnerOdds: null,
    runnerVersion: null,
    survivalProb: null,
    graduated: false,
    rugged: false,
    peakMult: 1,
    ...o,
  };
}

const emptyGate = evaluateSurvivalGate(null, [], now);
const versions = { grad_prob: 'knn-v2@60:9:bbbb', rug_prob: null, runner_prob: null, post_grad_survival: null };

describe('accuracy report', () => {
  it('is honest on an empty table: zero counts, null rates, the gate suspended', () => {
    const r = buildAccuracyReport({ computedAt: now, windowDays: 30, predictions: [], checkpoints: [], survivalGate: emptyGate, currentVersions: versions });
    expect(r).toMatchObject({
      method: 'forward',
      grad_prob: [],
      rug_prob: [],
      runner_prob: [],
      base_rates: { n_mints: 0, graduation_rate: null, runner_2x_from_call: null, runner_5x_from_call: null },
      post_graduation: { sustain_rate_30m: null, n: 0, checkpoints_min: [5, 15, 30] },
      post_grad_survival: { state: 'suspended', since: now.toISOString(), gate: { n: 0, calibration_error: null } },
    });
  });

  it('groups by model family, the current one first, with a cell per age × band', () => {
    const predictions = [
      pred('a', 30, 0.8, { graduated: true, gradVersion: 'knn-v1@30:500:aaaa' }),
      pred('a', 60, 0.9, { graduated: true, gradVersion: 'knn-v1@60:501:cccc' }),
      pred('b', 30, 0.6, { gradVersion: 'knn-v2@30:9:bbbb', predictedAt: at(2) }),
      pred('c', 60, 0.02, { gradVersion: 'knn-v2@60:9:bbbb', predictedAt: at(1) }),
    ];
    const r = buildAccuracyReport({ computedAt: now, windowDays: 30, predictions, checkpoints: [], survivalGate: emptyGate, currentVersions: versions });
    expect(r.grad_prob.map((m) => [m.model_version, m.n])).toEqual([
      ['knn-v2', 2],
      ['knn-v1', 2],
    ]);
    const v1 = r.grad_prob[1]!;
    expect(v1.calibration).toHaveLength(14);
    expect(v1.calibration.filter((c) => c.n > 0).map((c) => [c.age_bucket, c.confidence_band.lo, c.n, c.historical_actual_rate])).toEqual([
      [30, 0.7, 1, 1],
      [60, 0.9, 1, 1],
    ]);
    expect(v1.threshold_bands).toEqual([
      { min_prob: 0.5, n: 2, graduated: 2, precision: 1, base_rate: 1, lift: 1 },
      { min_prob: 0.7, n: 2, graduated: 2, precision: 1, base_rate: 1, lift: 1 },
      { min_prob: 0.9, n: 1, graduated: 1, precision: 1, base_rate: 1, lift: 1 },
    ]);
    expect(r.grad_prob[0]!.auc).toBeNull(); // knn-v2 has no graduate
    expect(r.grad_prob[0]!.brier).toBeCloseTo((0.36 + 0.0004) / 2, 12);
    expect(r.grad_prob[0]!.first_predicted_at).toBe(at(2).toISOString());
  });

  it('measures base rates from each mint’s first call, and runner odds per tier from the call', () => {
    const predictions = [
      pred('a', 30, 0.5, { peakMult: 6, graduated: true, runnerOdds: odds(0.8), runnerVersion: 'runner-knn-v1@30:1:x' }),
      pred('a', 60, 0.5, { peakMult: 1.5, graduated: true, runnerOdds: odds(0.4), runnerVersion: 'runner-knn-v1@60:1:x' }),
      pred('b', 60, 0.1, { peakMult: 2.5, runnerOdds: odds(0.2), runnerVersion: 'runner-knn-v1@60:1:x' }),
      pred('c', 30, 0.1, { peakMult: 1 }),
    ];
    const r = buildAccuracyReport({ computedAt: now, windowDays: 30, predictions, checkpoints: [], survivalGate: emptyGate, currentVersions: versions });
    // First calls: a@30 (6x, graduated), b@60 (2.5x), c@30 (1x).
    expect(r.base_rates).toEqual({ n_mints: 3, graduation_rate: 1 / 3, runner_2x_from_call: 2 / 3, runner_5x_from_call: 1 / 3 });
    const twoX = r.runner_prob.find((x) => x.target === '2x')!;
    expect(twoX).toMatchObject({ model_version: 'runner-knn-v1', n: 3, positives: 2 });
    // 0.8 (6x) and 0.2 (2.5x) ran, 0.4 (1.5x) did not: one of the two pairs is ordered right.
    expect(twoX.auc).toBe(0.5);
    const fiveX = r.runner_prob.find((x) => x.target === '5x')!;
    expect(fiveX).toMatchObject({ n: 3, positives: 1 });
    expect(r.runner_prob.map((x) => x.target)).toEqual(['2x', '3x', '5x', '10x', '20x']);
  });

  it('takes the sustain rate from graduates whose 30-minute outcome is known', () => {
    const checkpoints = [
      { mint: 'g1', afterS: 300, held80: true },
      { mint: 'g1', afterS: 900, held80: true },
      { mint: 'g1', afterS: 1800, held80: true },
      { mint: 'g2', afterS: 300, held80: false },
      { mint: 'g3', afterS: 300, held80: true },
      { mint: 'g3', afterS: 1800, held80: null },
    ];
    expect(Object.fromEntries(sustainLabels(checkpoints))).toEqual({ g1: true, g2: false, g3: null });
    const r = buildAccuracyReport({ computedAt: now, windowDays: 30, predictions: [], checkpoints, survivalGate: emptyGate, currentVersions: versions });
    expect(r.post_graduation).toMatchObject({ sustain_rate_30m: 0.5, n: 2 });
  });

  it('feeds the survival gate one pair per graduate: its latest logged score against its known label', () => {
    const predictions = [
      pred('g1', 30, 0.5, { graduated: true, survivalProb: 0.3 }),
      pred('g1', 60, 0.5, { graduated: true, survivalProb: 0.7 }),
      pred('g2', 60, 0.5, { graduated: true, survivalProb: 0.2 }),
      pred('g3', 60, 0.5, { graduated: true, survivalProb: 0.9 }), // label unknown
      pred('d', 60, 0.1, { survivalProb: 0.4 }), // never graduated
    ];
    const labels = new Map<string, boolean | null>([
      ['g1', true],
      ['g2', false],
      ['g3', null],
    ]);
    expect(survivalForward(predictions, labels)).toEqual([
      { prob: 0.7, label: true },
      { prob: 0.2, label: false },
    ]);
  });
});
