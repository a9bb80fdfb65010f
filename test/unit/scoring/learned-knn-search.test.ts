import { fitScaling } from '../../../domain/scoring/knn-index';
import { JEFFREYS_PRIOR } from '../../../domain/scoring/knn-label-model';
import { fitLearnedKnnModelSteps } from '../../../domain/scoring/learned-knn-model';
import { runSteps } from '../../../domain/scoring/stepwise';
import { SeededRandom } from '../../../ingest/simulator/seeded-random';

type Row = { mint: string; observedAt: Date; v: number[]; y: boolean };

const T0 = Date.parse('2026-10-01T00:00:00Z');
const KEYS = Array.from({ length: 12 }, (_, j) => `f${j}`);
const EXCLUDED = ['f1', 'f4', 'f9'];

/** Rows on a coarse lattice in some coordinates (ties and exact duplicates everywhere), continuous in others. */
function rows(n: number, rng: SeededRandom): Row[] {
  return Array.from({ length: n }, (_, i) => ({
    mint: `m${String(i).padStart(5, '0')}`,
    observedAt: new Date(T0 + i * 60_000),
    v: KEYS.map((_, j) => (j % 3 === 0 ? rng.lognormal(0, 1) : rng.int(0, 3))),
    y: rng.chance(0.2),
  }));
}

describe('the learned metric searches exactly', () => {
  it('returns the brute-force neighbours of the weighted distance, features of weight 0 left out, ties to the earlier row', () => {
    const rng = new SeededRandom(31);
    // Under ~670 rows there is no held-out slice: the metric is every allowed feature at weight 1, k = 50, so the
    // definition below is exact, not a re-derivation of learned weights.
    const corpus = rows(600, rng);
    const model = runSteps(
      fitLearnedKnnModelSteps(corpus, {
        featureKeys: KEYS,
        vectorOf: (r) => r.v,
        labels: ['y'],
        labelsOf: (r) => [r.y],
        baseRatePrior: JEFFREYS_PRIOR,
        exclude: EXCLUDED,
      }),
    );
    expect(model.metric.candidate).toBe('uniform');
    for (const k of EXCLUDED) expect(model.metric.weights[k]).toBe(0);
    const kept = KEYS.flatMap((k, j) => (EXCLUDED.includes(k) ? [] : [j]));
    const { mean, std } = fitScaling(
      model.indexRows.map((r) => kept.map((j) => r.v[j]!)),
      kept.length,
    );
    const z = (v: number[]) => kept.map((j, c) => (v[j]! - mean[c]!) / std[c]!);
    const queries = [...rows(30, rng).map((r) => r.v), corpus[0]!.v, corpus[599]!.v, KEYS.map(() => 1)];
    for (const q of queries) {
      const zq = z(q);
      const want = model.indexRows
        .map((r, id) => {
          const zr = z(r.v);
          let d = 0;
          for (let c = 0; c < zr.length; c++) d += (zr[c]! - zq[c]!) * (zr[c]! - zq[c]!);
          return { id, d };
        })
        .sort((a, b) => a.d - b.d || a.id - b.id)
        .slice(0, model.metric.k);
      const got = model.query(q).neighbours;
      expect(got.map((n) => n.id)).toEqual(want.map((w) => w.id));
      expect(got.map((n) => n.distance)).toEqual(want.map((w) => Math.sqrt(w.d)));
      expect(got.every((n) => n.label === model.indexRows[n.id])).toBe(true);
    }
  });
});
