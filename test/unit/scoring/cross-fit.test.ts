import { crossFittedLogOddsSteps } from '../../../domain/scoring/cross-fit';
import { JEFFREYS_PRIOR } from '../../../domain/scoring/knn-label-model';
import { DEFAULT_K_GRID, fitLearnedKnnModelSteps, LOGISTIC_AXIS_GRID } from '../../../domain/scoring/learned-knn-model';
import { fitLogistic } from '../../../domain/scoring/logistic-regression';
import { runSteps } from '../../../domain/scoring/stepwise';
import { SeededRandom } from '../../../ingest/simulator/seeded-random';

type Row = { mint: string; observedAt: Date; v: number[]; y: boolean };
const T0 = Date.parse('2026-10-01T00:00:00Z');

/** Rare positives whose odds follow the first two of `d` features; the other features are noise a fit can chase. */
function labelled(n: number, d: number, seed: number): Row[] {
  const rng = new SeededRandom(seed);
  return Array.from({ length: n }, (_, i) => {
    const v = Array.from({ length: d }, () => rng.uniform(-1, 1));
    const y = rng.chance(1 / (1 + Math.exp(-(-3.2 + 1.5 * v[0]! + 1.5 * v[1]!))));
    return { mint: `m${String(i).padStart(5, '0')}`, observedAt: new Date(T0 + i * 60_000), v, y };
  });
}

const meanOf = (xs: readonly number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;

describe('cross-fitted logistic log-odds', () => {
  it('put the fitted rows positives where unseen positives land, where in-sample log-odds inflate them', () => {
    // A small corpus with many noise features (~100 positives, 30 features): the regime where a fit flatters the
    // rows it saw. Averaged over seeds, since one sample's ~100 positives have a mean log-odds noisy by ~0.1.
    const unseen = labelled(20_000, 30, 999);
    const inflation: number[] = [];
    const shift: number[] = [];
    for (const seed of [101, 102, 103, 104]) {
      const train = labelled(1500, 30, seed);
      const xs = train.map((r) => r.v);
      const ys = train.map((r) => r.y);
      const full = fitLogistic(xs, ys);
      const oof = runSteps(crossFittedLogOddsSteps(xs, ys));
      const positives = (rows: readonly Row[], logOdds: (r: Row, i: number) => number) => meanOf(rows.flatMap((r, i) => (r.y ? [logOdds(r, i)] : [])));
      const unseenPos = positives(unseen, (r) => full.logOdds(r.v));
      inflation.push(positives(train, (r) => full.logOdds(r.v)) - unseenPos);
      shift.push(positives(train, (_, i) => oof[i]!) - unseenPos);
    }
    // In sample, the positives sit well above unseen ones; out of fold they do not.
    expect(meanOf(inflation)).toBeGreaterThan(0.25);
    expect(Math.abs(meanOf(shift))).toBeLessThan(0.1);
  });

  it('fit each fold without its own rows: changing a row changes other folds only', () => {
    const rows = labelled(400, 4, 3);
    const xs = rows.map((r) => r.v);
    const ys = rows.map((r) => r.y);
    const a = runSteps(crossFittedLogOddsSteps(xs, ys, 4));
    const moved = xs.map((x, i) => (i === 0 ? x.map((v) => v + 5) : x));
    const b = runSteps(crossFittedLogOddsSteps(moved, ys, 4));
    // Row 0 is in fold 0: the other rows of fold 0 were scored by a fit that never saw it.
    for (let i = 4; i < 400; i += 4) expect(b[i]).toBe(a[i]);
    expect(b[1]).not.toBe(a[1]);
    expect(() => runSteps(crossFittedLogOddsSteps(xs, ys, 1))).toThrow(RangeError);
  });

  it('leave the learned metric the same in shape: a candidate, k from the grid, an axis weight from the grid', () => {
    const rows = labelled(4000, 12, 5);
    const model = runSteps(
      fitLearnedKnnModelSteps(rows, {
        featureKeys: Array.from({ length: 12 }, (_, j) => `f${j}`),
        vectorOf: (r) => r.v,
        labels: ['y'],
        labelsOf: (r) => [r.y],
        baseRatePrior: JEFFREYS_PRIOR,
      }),
    );
    const m = model.metric;
    expect(m.candidate).toMatch(/^(uniform|logistic|logistic-sqrt|logistic-top4|logistic-top8)(\+logistic-axis)?$|^logistic-axis$/);
    expect(DEFAULT_K_GRID).toContain(m.k);
    expect([0, 1, ...LOGISTIC_AXIS_GRID]).toContain(m.logisticAxisWeight);
    expect(m.heldOutLogLoss).toBeGreaterThan(0);
    const hi = model.query(rows[0]!.v.map((_, j) => (j < 2 ? 0.9 : 0)));
    const lo = model.query(rows[0]!.v.map((_, j) => (j < 2 ? -0.9 : 0)));
    expect(hi.neighbours).toHaveLength(m.k);
    expect(hi.scores[0]!.prob).toBeGreaterThan(lo.scores[0]!.prob);
  });
});
