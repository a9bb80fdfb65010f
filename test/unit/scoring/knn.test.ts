import { buildFlatKnnIndex, fitScaling } from '../../../domain/scoring/knn-index';
import { SeededRandom } from '../../../ingest/simulator/seeded-random';

const rows = (vectors: number[][]) => vectors.map((vector, i) => ({ vector, label: i }));

describe('flat k-NN index', () => {
  it('z-scores each feature, and treats a constant feature as std 1 (it then adds nothing)', () => {
    const vs = [
      [5, 0],
      [5, 2],
      [5, 4],
    ];
    const sc = fitScaling(vs, 2);
    expect(sc.mean).toEqual([5, 2]);
    expect(sc.std[0]).toBe(1);
    expect(sc.std[1]).toBeCloseTo(Math.sqrt(8 / 3));
    const index = buildFlatKnnIndex(rows(vs), 2);
    const near = index.query([5, 2.1], 3);
    expect(near.map((n) => n.id)).toEqual([1, 2, 0]);
    expect(near[0]!.distance).toBeCloseTo(0.1 / Math.sqrt(8 / 3));
    // A far-off value of the constant feature shifts every distance equally: same order.
    expect(index.query([1000, 2.1], 3).map((n) => n.id)).toEqual([1, 2, 0]);
  });

  it('returns every row when the corpus is smaller than k, and nothing when it is empty', () => {
    expect(buildFlatKnnIndex(rows([[1], [2]]), 1).query([0], 50)).toHaveLength(2);
    const empty = buildFlatKnnIndex<number>([], 3);
    expect(empty.query([1, 2, 3])).toEqual([]);
    expect(empty.scaling).toEqual({ mean: [0, 0, 0], std: [1, 1, 1] });
  });

  it('breaks distance ties by the lower id', () => {
    const index = buildFlatKnnIndex(rows([[1], [-1], [1], [-1]]), 1);
    expect(index.query([0], 3).map((n) => n.id)).toEqual([0, 1, 2]);
  });

  it('agrees with a brute-force sort', () => {
    const rng = new SeededRandom(4);
    const vs = Array.from({ length: 3000 }, () => Array.from({ length: 6 }, () => rng.lognormal(1, 1)));
    const index = buildFlatKnnIndex(rows(vs), 6);
    const { mean, std } = index.scaling;
    for (let q = 0; q < 20; q++) {
      const query = Array.from({ length: 6 }, () => rng.lognormal(1, 1));
      const z = (v: number[]) => v.map((x, j) => (x - mean[j]!) / std[j]!);
      const zq = z(query);
      const brute = vs
        .map((v, id) => ({ id, d: Math.sqrt(z(v).reduce((s, x, j) => s + (x - zq[j]!) ** 2, 0)) }))
        .sort((a, b) => a.d - b.d || a.id - b.id)
        .slice(0, 50);
      const got = index.query(query, 50);
      expect(got.map((n) => n.id)).toEqual(brute.map((b) => b.id));
      got.forEach((n, i) => expect(n.distance).toBeCloseTo(brute[i]!.d, 9));
    }
  });

  it('refuses vectors of the wrong width or with non-finite values', () => {
    expect(() => buildFlatKnnIndex(rows([[1, 2]]), 3)).toThrow(RangeError);
    const index = buildFlatKnnIndex(rows([[1]]), 1);
    expect(() => index.query([NaN])).toThrow(RangeError);
  });
});
