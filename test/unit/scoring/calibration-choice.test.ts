import { auc, logLoss } from '../../../domain/accuracy/forward-metrics';
import {
  chooseCalibrator,
  chooseCalibratorSteps,
  fitCalibrationCandidate,
  fitPlattCalibrator,
  type NeighbourSample,
} from '../../../domain/scoring/calibration-choice';
import { SeededRandom } from '../../../ingest/simulator/seeded-random';

const K = 50;
const opts = { baseRate: 0.03, priorStrength: 10, minSamples: 200 };
const sigmoid = (t: number) => 1 / (1 + Math.exp(-t));

/** Fractional distance-weighted votes out of K, most near 0 (rare positives), with P(label) = truth(vote / K). */
function votes(n: number, seed: number, truth: (raw: number) => number): NeighbourSample[] {
  const rng = new SeededRandom(seed);
  return Array.from({ length: n }, () => {
    const positives = K * rng.uniform(0, 1) ** 3;
    return { positives, k: K, label: rng.chance(truth(positives / K)) };
  });
}

/** Flat at 1% below a vote of 20%, flat at 30% above: a step no logistic curve follows. */
const plateau = (r: number) => (r < 0.2 ? 0.01 : 0.3);

const scored = (rows: readonly NeighbourSample[], prob: (s: NeighbourSample) => number) => rows.map((s) => ({ prob: prob(s), label: s.label }));

describe('calibration chosen by held-out loss', () => {
  it('a Platt map is strictly increasing in the vote, so it keeps the raw rate’s AUC exactly', () => {
    const fitOn = votes(3000, 1, (r) => 0.01 + 0.6 * r);
    const platt = fitPlattCalibrator(fitOn, opts)!;
    expect(platt.method).toBe('platt');
    const test = votes(3000, 2, (r) => 0.01 + 0.6 * r);
    expect(auc(scored(test, (s) => platt.apply(s.positives, s.k)))).toBe(auc(scored(test, (s) => s.positives / s.k)));
    for (let g = 1; g <= 200; g++) expect(platt.apply(g / 4, K)).toBeGreaterThan(platt.apply((g - 1) / 4, K));
    for (let g = 0; g <= 50; g++) expect(platt.apply(g, K) > 0 && platt.apply(g, K) < 1).toBe(true);
  });

  it('isotonic steps tie every vote inside a pooled block, which the Platt map keeps apart', () => {
    const fitOn = votes(3000, 3, plateau);
    const step = fitCalibrationCandidate('isotonic-step', fitOn, opts)!;
    const inside = [0.05, 0.1, 0.15].map((r) => step.apply(r * K, K));
    expect(new Set(inside).size).toBeLessThan(3);
    const platt = fitPlattCalibrator(fitOn, opts)!;
    expect(new Set([0.05, 0.1, 0.15].map((r) => platt.apply(r * K, K))).size).toBe(3);
  });

  it('picks the Platt map when the truth is logistic in the vote’s log-odds', () => {
    const truth = (r: number) => sigmoid(-3.5 + 1.5 * Math.log((r * K + 0.3) / (K * (1 - r) + 9.7)) + 1.5 * Math.log(9.7 / 0.3));
    const choice = chooseCalibrator(votes(4000, 4, truth), opts);
    expect(choice.calibrator.method).toBe('platt');
    expect(choice.losses!.platt).toBeLessThan(choice.losses!.isotonic);
    expect(choice.losses!.platt).toBeLessThan(choice.losses!['isotonic-step']);
  });

  it('picks an isotonic map when the truth is a step Platt cannot follow, and that map fits new data better', () => {
    const rows = votes(4000, 5, plateau);
    const choice = chooseCalibrator(rows, opts);
    expect(choice.calibrator.method).not.toBe('platt');
    const best = Math.min(...Object.values(choice.losses!));
    expect(choice.losses![choice.calibrator.method as 'isotonic' | 'isotonic-step']).toBe(best);
    const fresh = votes(4000, 6, plateau);
    const platt = fitPlattCalibrator(rows, opts)!;
    expect(logLoss(scored(fresh, (s) => choice.calibrator.apply(s.positives, s.k)))!).toBeLessThan(
      logLoss(scored(fresh, (s) => platt.apply(s.positives, s.k)))!,
    );
  });

  it('chooses in pieces, pausing inside the Platt regression as well as between fits, with the same answer', () => {
    const rows = votes(20_000, 8, (r) => 0.01 + 0.6 * r);
    const steps = chooseCalibratorSteps(rows, opts);
    let pauses = 0;
    let r = steps.next();
    for (; !r.done; r = steps.next()) pauses++;
    // Seven fits with a pause after each fit and each held-out loss are 13 pauses; the Platt passes add many more.
    expect(pauses).toBeGreaterThan(50);
    const whole = chooseCalibrator(rows, opts);
    expect(r.value.losses).toEqual(whole.losses);
    expect(r.value.calibrator.method).toBe(whole.calibrator.method);
    for (const g of [0, 1.5, 10, 37.25, 50]) expect(r.value.calibrator.apply(g, K)).toBe(whole.calibrator.apply(g, K));
  });

  it('fits no map below the minimum slice: the smoothed neighbour rate, no losses', () => {
    const choice = chooseCalibrator(
      votes(150, 7, () => 0.05),
      opts,
    );
    expect(choice.calibrator.method).toBe('smoothed-knn');
    expect(choice.losses).toBeNull();
  });
});
