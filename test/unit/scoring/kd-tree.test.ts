import { float32Down, float32Up, LEAF_SIZE, selectNth } from '../../../domain/scoring/kd-tree-build';
import { buildKdTreeIndex, buildKdTreeIndexOnColumnsSteps, buildKdTreeIndexSteps } from '../../../domain/scoring/kd-tree-index';
import { buildFlatKnnIndex, fitScaling, type KnnIndex } from '../../../domain/scoring/knn-index';
import { groupDuplicates } from '../../../domain/scoring/point-groups';
import { runSteps } from '../../../domain/scoring/stepwise';
import { SeededRandom } from '../../../ingest/simulator/seeded-random';

const rows = (vectors: number[][]) => vectors.map((vector, i) => ({ vector, label: `row-${i}` }));

/**
 * The definition the index must meet, computed the slow way: every row's squared distance to the z-scored
 * query, summed feature by feature, then the k smallest (distance, id) pairs.
 */
function bruteForce(vectors: number[][], index: KnnIndex<string>, query: number[], k: number) {
  const { mean, std } = index.scaling;
  const z = (v: number[]) => v.map((x, j) => (x - mean[j]!) / std[j]!);
  const zq = z(query);
  return vectors
    .map((v, id) => {
      const zv = z(v);
      let d = 0;
      for (let j = 0; j < zv.length; j++) d += (zv[j]! - zq[j]!) * (zv[j]! - zq[j]!);
      return { id, d };
    })
    .sort((a, b) => a.d - b.d || a.id - b.id)
    .slice(0, Math.max(0, k));
}

function expectExact(vectors: number[][], dims: number, queries: number[][], ks: number[]) {
  const tree = buildKdTreeIndex(rows(vectors), dims);
  const flat = buildFlatKnnIndex(rows(vectors), dims);
  expect(tree.scaling).toEqual(flat.scaling);
  for (const q of queries) {
    for (const k of ks) {
      const got = tree.query(q, k);
      const want = bruteForce(vectors, tree, q, k);
      expect(got.map((n) => n.id)).toEqual(want.map((w) => w.id));
      // Bit-for-bit the distances the flat scan reports, not merely close.
      expect(got.map((n) => n.distance)).toEqual(want.map((w) => Math.sqrt(w.d)));
      expect(got).toEqual(flat.query(q, k));
      expect(got.every((n) => n.label === `row-${n.id}`)).toBe(true);
    }
  }
}

describe('k-d tree k-NN index', () => {
  it('returns exactly the brute-force neighbours on skewed continuous data', () => {
    const rng = new SeededRandom(11);
    const draw = () => [rng.lognormal(32, 0.2), rng.lognormal(2, 1.5), rng.uniform(0, 5), rng.uniform(0, 4), rng.float() ** 3, rng.lognormal(1.1, 0.3)];
    const vectors = Array.from({ length: 4000 }, draw);
    const queries = [...Array.from({ length: 25 }, draw), [1e6, 1e6, -1e6, 0, 0, 1e6]];
    expectExact(vectors, 6, queries, [1, 10, 50, 333]);
  });

  it('breaks ties by the lower id among heavy duplicates and equal distances', () => {
    // Coordinates in {0, 1, 2}: thousands of exact duplicates, and most distances shared by many rows.
    const rng = new SeededRandom(12);
    const vectors = Array.from({ length: 3000 }, () => Array.from({ length: 6 }, () => rng.int(0, 3)));
    // Three quarters of the rows are one vector (mints with no trade yet), with ids spread through the corpus.
    for (let i = 0; i < vectors.length; i++) if (rng.chance(0.75)) vectors[i] = [0, 0, 0, 0, 0, 0];
    const queries = [[0, 0, 0, 0, 0, 0], [1, 1, 1, 1, 1, 1], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [2, 0, 2, 0, 2, 0], vectors[7]!, vectors[2999]!];
    expectExact(vectors, 6, queries, [1, 3, 50, 2500, 3000]);
  });

  it('visits a subtree lying exactly at the k-th distance when it holds a lower id', () => {
    // Distinct lattice points, unscaled: equal distances sit in different subtrees, and a far subtree's
    // bound often equals the k-th distance exactly. Ids are shuffled so the lower id is anywhere.
    const rng = new SeededRandom(16);
    const lattice: number[][] = [];
    for (let x = -6; x <= 6; x++) for (let y = -6; y <= 6; y++) for (let w = -1; w <= 1; w++) lattice.push([x, y, w]);
    const scaling = { mean: [0, 0, 0], std: [1, 1, 1] };
    for (let trial = 0; trial < 20; trial++) {
      const vectors = [...lattice].sort(() => rng.float() - 0.5);
      const tree = buildKdTreeIndex(rows(vectors), 3, scaling);
      for (const q of [
        [0, 0, 0],
        [0.5, 0, 0],
        [0.5, 0.5, 0],
        [3, -2, 1],
        [6, 6, 0],
      ]) {
        for (const k of [2, 5, 6, 13, 30]) expect(tree.query(q, k).map((n) => n.id)).toEqual(bruteForce(vectors, tree, q, k).map((w) => w.id));
      }
    }
  });

  it('is exact in other dimensions too (the generic distance loop)', () => {
    const rng = new SeededRandom(13);
    for (const dims of [1, 2, 3, 9]) {
      const vectors = Array.from({ length: 1500 }, () => Array.from({ length: dims }, () => (rng.chance(0.3) ? rng.int(0, 4) : 3 * rng.normal())));
      const queries = Array.from({ length: 10 }, () => Array.from({ length: dims }, () => 4 * rng.normal()));
      expectExact(vectors, dims, [...queries, vectors[0]!], [1, 50]);
    }
  });

  it('is exact in twenty-odd clustered dimensions with exact duplicates and constant coordinates (the learned metric)', () => {
    // Clusters of near-copies, as a corpus resampled from a few hundred launches: a tree wider than one building
    // piece, where every bound is a box bound and most neighbours at k = 100 lie outside the query's cluster.
    const rng = new SeededRandom(17);
    const dims = 23;
    const centres = Array.from({ length: 300 }, () => Array.from({ length: dims }, (_, j) => (j % 5 === 0 ? rng.int(0, 3) : rng.lognormal(0, 1))));
    const near = (c: number[]) => c.map((x, j) => (j % 5 === 0 || rng.chance(0.2) ? x : x * (1 + rng.uniform(-0.02, 0.02))));
    const vectors = Array.from({ length: 12_000 }, () => near(centres[rng.int(0, centres.length)]!));
    // One coordinate is the same for every row (std 0 → 1), and a run of rows repeats one vector exactly.
    for (const v of vectors) v[7] = 4;
    for (let i = 0; i < vectors.length; i += 97) vectors[i] = [...vectors[0]!];
    const queries = [...Array.from({ length: 12 }, () => near(centres[rng.int(0, centres.length)]!)), vectors[0]!, Array.from({ length: dims }, () => 9)];
    expectExact(vectors, dims, queries, [1, 25, 100]);
  });

  it('keeps the lower ids when every row is the same vector', () => {
    const vectors = Array.from({ length: 500 }, () => [3, 3]);
    const index = buildKdTreeIndex(rows(vectors), 2);
    expect(index.query([3, 3], 4).map((n) => n.id)).toEqual([0, 1, 2, 3]);
    expect(index.query([-7, 9], 2).map((n) => n.id)).toEqual([0, 1]);
  });

  it('returns every row when k exceeds the corpus, nothing for k 0 or an empty index', () => {
    const small = Array.from({ length: LEAF_SIZE + 3 }, (_, i) => [i, -i]);
    const index = buildKdTreeIndex(rows(small), 2);
    expect(index.query([0, 0], 50)).toHaveLength(small.length);
    expect(index.query([0, 0], 0)).toEqual([]);
    expectExact(small, 2, [[4.5, -4.5]], [50]);
    const empty = buildKdTreeIndex<string>([], 3);
    expect(empty.size).toBe(0);
    expect(empty.query([1, 2, 3])).toEqual([]);
    expect(empty.scaling).toEqual({ mean: [0, 0, 0], std: [1, 1, 1] });
    expectExact([[1, 2, 3]], 3, [[0, 0, 0]], [1, 5]);
  });

  it('uses a scaling it is given instead of fitting one', () => {
    const scaling = { mean: [10, 0], std: [2, 100] };
    const vectors = [
      [10, 0],
      [12, 0],
      [10, 150],
    ];
    const index = buildKdTreeIndex(rows(vectors), 2, scaling);
    expect(index.scaling).toBe(scaling);
    // z-scored: [0,0], [1,0], [0,1.5]; from [0,0] the second row is nearer than the third.
    expect(index.query([10, 0], 3).map((n) => n.id)).toEqual([0, 1, 2]);
    expect(index.query([10, 0], 3).map((n) => n.distance)).toEqual([0, 1, 1.5]);
  });

  it('builds the same index step by step as in one go', () => {
    const rng = new SeededRandom(14);
    const vectors = Array.from({ length: 70_000 }, () => Array.from({ length: 6 }, () => rng.lognormal(1, 1)));
    const steps = buildKdTreeIndexSteps(rows(vectors), 6);
    let pauses = 0;
    let r = steps.next();
    for (; !r.done; r = steps.next()) pauses++;
    // It pauses at all, in pieces, not just once per phase.
    expect(pauses).toBeGreaterThan(10);
    const whole = buildKdTreeIndex(rows(vectors), 6);
    const q = [2, 1, 3, 0.5, 4, 2];
    expect(r.value.query(q, 50)).toEqual(whole.query(q, 50));
  });

  it('indexes chosen columns as the brute force over projected vectors does, duplicates and ties included', () => {
    const rng = new SeededRandom(19);
    const dims = 9;
    const columns = [8, 0, 3, 4, 6];
    // Lattice coordinates in some columns (ties, and exact duplicates once projected), continuous in others.
    const vectors = Array.from({ length: 5000 }, () => Array.from({ length: dims }, (_, j) => (j % 2 === 0 ? rng.int(0, 3) : rng.lognormal(0, 1))));
    const projected = vectors.map((v) => columns.map((j) => v[j]!));
    const scaling = fitScaling(projected, columns.length);
    const labels = vectors.map((_, i) => `row-${i}`);
    const index = runSteps(buildKdTreeIndexOnColumnsSteps(vectors, labels, columns, scaling));
    const flat = buildFlatKnnIndex(rows(projected), columns.length, scaling);
    const queries = [
      ...Array.from({ length: 20 }, () => columns.map((j) => (j % 2 === 0 ? rng.int(0, 3) : rng.lognormal(0, 1)))),
      projected[0]!,
      projected[4999]!,
    ];
    for (const q of queries) {
      for (const k of [1, 10, 100, 700]) {
        const got = index.query(q, k);
        const want = bruteForce(projected, index, q, k);
        expect(got.map((n) => n.id)).toEqual(want.map((w) => w.id));
        expect(got.map((n) => n.distance)).toEqual(want.map((w) => Math.sqrt(w.d)));
        expect(got).toEqual(flat.query(q, k));
      }
    }
    expect(() => runSteps(buildKdTreeIndexOnColumnsSteps([[1, NaN]], ['a'], [1], { mean: [0], std: [1] }))).toThrow(RangeError);
    expect(() => runSteps(buildKdTreeIndexOnColumnsSteps([[1, 2]], [], [0], { mean: [0], std: [1] }))).toThrow(RangeError);
  });

  it('refuses vectors of the wrong width or with non-finite values', () => {
    expect(() => buildKdTreeIndex(rows([[1, 2]]), 3)).toThrow(RangeError);
    expect(() => buildKdTreeIndex(rows([[1, Infinity]]), 2)).toThrow(RangeError);
    const index = buildKdTreeIndex(rows([[1]]), 1);
    expect(() => index.query([NaN])).toThrow(RangeError);
    expect(() => index.query([1, 2])).toThrow(RangeError);
  });
});

describe('k-d tree pieces', () => {
  it('rounds box corners outwards to Float32, so a box always contains its points', () => {
    const rng = new SeededRandom(18);
    const xs = [
      0,
      -0,
      1,
      -1,
      0.1,
      -0.1,
      1e-40,
      -1e-40,
      1e300,
      -1e300,
      Infinity,
      -Infinity,
      ...Array.from({ length: 500 }, () => rng.normal() * 10 ** rng.int(-8, 8)),
    ];
    for (const x of xs) {
      const down = float32Down(x);
      const up = float32Up(x);
      expect(down <= x && x <= up).toBe(true);
      expect(Math.fround(down)).toBe(down);
      expect(Math.fround(up)).toBe(up);
      // The nearest such values: no Float32 lies strictly between.
      if (down !== x && Number.isFinite(x)) expect([down, up]).toContain(Math.fround(down / 2 + up / 2));
    }
  });

  it('groups identical vectors with their ids ascending', () => {
    const z = Float64Array.from([1, 2, 3, 4, 1, 2, 5, 5, 3, 4, 1, 2]);
    const g = runSteps(groupDuplicates(z, 6, 2));
    expect(g.count).toBe(3);
    const idsOf = (p: number) => Array.from(g.ids.subarray(g.start[p]!, g.start[p + 1]!));
    expect([0, 1, 2].map(idsOf)).toEqual([[0, 2, 5], [1, 4], [3]]);
    expect(Array.from(g.points)).toEqual([1, 2, 3, 4, 5, 5]);
  });

  it('selects the element of rank k with smaller-or-equal ones before it and greater-or-equal after', () => {
    const rng = new SeededRandom(15);
    for (let trial = 0; trial < 200; trial++) {
      const n = rng.int(1, 60);
      const dims = 2;
      const values = Array.from({ length: n }, () => rng.int(0, 6));
      const points = new Float64Array(n * dims);
      values.forEach((v, i) => {
        points[i * dims + 1] = v;
        points[i * dims] = i;
      });
      const perm = Int32Array.from(values.keys());
      const k = rng.int(0, n);
      selectNth(points, dims, 1, perm, 0, n - 1, k);
      const after = Array.from({ length: n }, (_, i) => points[i * dims + 1]!);
      expect(after[k]).toBe([...values].sort((a, b) => a - b)[k]);
      expect(after.slice(0, k).every((v) => v <= after[k]!)).toBe(true);
      expect(after.slice(k + 1).every((v) => v >= after[k]!)).toBe(true);
      // Rows moved whole, and perm says where each came from.
      for (let i = 0; i < n; i++) expect(points[i * dims]).toBe(perm[i]);
    }
  });
});
