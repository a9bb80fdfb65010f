import { fitGradProbModel, type CorpusRow } from '../../../domain/scoring/grad-prob-model';
import { fitGradProbV2Model } from '../../../domain/scoring/grad-prob-v2-model';
import { LAUNCH_FEATURE_KEYS, type LaunchFeatures } from '../../../domain/scoring/launch-features';
import { FEATURE_VECTOR_KEYS, type MintFeatures } from '../../../domain/scoring/mint-features';
import { runSteps } from '../../../domain/scoring/stepwise';
import { MATCHED_FEATURES, SIMILAR_LAUNCHES, similarLaunches, type NeighbourRow } from '../../../domain/scoring/similar-launches';
import type { ModelCorpusRecord } from '../../../db/mint/corpus-store';
import { SeededRandom } from '../../../ingest/simulator/seeded-random';
import { similarLaunchIndexSteps } from '../../../models/mint/similar-launch-index';

const T = Date.parse('2026-11-20T12:00:00Z');
const scale = { keys: ['a', 'b', 'c', 'd'], unit: [1, 0.5, 2, 0] };
const query = [0, 0, 0, 0];

const row = (mint: string, distance: number, resolvedAtMs: number, vector = [1, 1, 1, 1]): NeighbourRow => ({
  mint,
  distance,
  vector,
  ageS: 60,
  observedAt: new Date(resolvedAtMs - 86_400_000),
  resolvedAt: new Date(resolvedAtMs),
  graduated: false,
  peakMult: 1.5,
  rugged: null,
});

describe('similar launches', () => {
  it('never shows a launch resolved at or after the score, even the nearest one resolved 1 ms after', () => {
    const found = similarLaunches(
      [row('after1ms', 0.01, T + 1), row('atScore', 0.02, T), row('before1ms', 0.5, T - 1), row('longBefore', 0.9, T - 3_600_000)],
      query,
      scale,
      new Date(T),
    );
    expect(found.map((l) => l.mint)).toEqual(['before1ms', 'longBefore']);
  });

  it('keeps no future launch among random neighbours, whatever their distances and resolution times', () => {
    const rng = new SeededRandom(7);
    for (let trial = 0; trial < 200; trial++) {
      const cut = T + rng.int(-1000, 1000);
      const rows = Array.from({ length: 60 }, (_, i) => row(`m${i}`, rng.uniform(0, 3), cut + rng.int(-3, 3)));
      const found = similarLaunches(rows, query, scale, new Date(cut));
      expect(found.length).toBe(Math.min(SIMILAR_LAUNCHES, rows.filter((r) => r.resolvedAt.getTime() < cut).length));
      for (const l of found) expect(l.resolvedAt.getTime()).toBeLessThan(cut);
      // The nearest of the knowable ones, nearest first.
      const knowable = rows.filter((r) => r.resolvedAt.getTime() < cut).sort((a, b) => a.distance - b.distance);
      expect(found.map((l) => l.distance)).toEqual(knowable.slice(0, SIMILAR_LAUNCHES).map((r) => r.distance));
    }
  });

  it('names the closest features on the model scale and never one the model does not use', () => {
    const [l] = similarLaunches([row('x', 0.3, T - 1, [0.3, 0.3, 0.1, 0])], query, scale, new Date(T));
    // a: 0.3×1, b: 0.3×0.5, c: 0.1×2; d has unit 0 (weight 0 in the metric) and is left out.
    expect(l!.matched.map((m) => m.feature)).toEqual(['b', 'c', 'a']);
    expect(l!.matched[0]!.difference).toBeCloseTo(0.15, 12);
    expect(l!.matched.length).toBeLessThanOrEqual(MATCHED_FEATURES);
  });

  it('refuses a query of another shape than the scale', () => {
    expect(() => similarLaunches([], [0, 0], scale, new Date(T))).toThrow(RangeError);
  });
});

describe('the serving model’s evidence (knn-v1)', () => {
  /** A corpus whose newest rows carry labels resolved after the scoring moment, as seeded history can. */
  function corpus(n: number, cut: number): ModelCorpusRecord[] {
    const rng = new SeededRandom(11);
    return Array.from({ length: n }, (_, i) => {
      const vSolSol = rng.uniform(30, 60);
      const features: MintFeatures = {
        vSolSol,
        vSolGrowthSol: vSolSol - 30,
        logTrades: rng.uniform(0, 5),
        logUniqueBuyers: rng.uniform(0, 4),
        topBuyerShare: rng.uniform(0, 1),
        currentMult: (vSolSol / 30) ** 2,
        buyCount: 3,
        sellCount: 1,
        uniqueBuyers: 3,
        creatorSold: false,
      };
      // Every third row resolves at or after the cut (0 to 2 ms past it).
      const resolvedAt = new Date(i % 3 === 0 ? cut + (i % 2) : cut - 1 - i);
      return {
        mint: `mint${i}`,
        features,
        graduated: vSolSol > 50,
        observedAt: new Date(cut - 100_000_000 + i * 1000),
        resolvedAt,
        rugFeatures: null,
        rugged: rng.uniform(0, 1) < 0.2,
        sustained30m: null,
        peakMult: rng.uniform(1, 4),
        source: 'synthetic',
        ageBucket: 30,
      };
    });
  }

  it('lists the model’s own nearest neighbours that were knowable, on its distance, with their outcomes', () => {
    const cut = T;
    const rows = corpus(600, cut);
    const model = fitGradProbModel(
      rows.map((r): CorpusRow => ({ ...r, ageBucket: 60 })),
      { ageBucket: 60 },
    );
    const index = runSteps(similarLaunchIndexSteps(rows, 60, 'knn-v1', undefined));
    const q = rows[0]!.features;
    const s = model.score(q);
    // The model's neighbours include launches resolved after the cut; the evidence never does.
    const byMint = new Map(rows.map((r) => [r.mint, r]));
    expect(s.neighbours.some((n) => byMint.get(n.mint)!.resolvedAt.getTime() >= cut)).toBe(true);
    const evidence = index.of(s.neighbours, q, new Date(cut));
    expect(evidence).toHaveLength(SIMILAR_LAUNCHES);
    const knowable = s.neighbours.filter((n) => byMint.get(n.mint)!.resolvedAt.getTime() < cut).slice(0, SIMILAR_LAUNCHES);
    expect(evidence.map((l) => l.mint)).toEqual(knowable.map((n) => n.mint));
    for (const l of evidence) {
      const r = byMint.get(l.mint)!;
      expect(l.resolvedAt.getTime()).toBeLessThan(cut);
      expect(l).toMatchObject({ graduated: r.graduated, peakMult: r.peakMult, rugged: r.rugged, ageS: 60 });
      for (const m of l.matched) expect(FEATURE_VECTOR_KEYS as readonly string[]).toContain(m.feature);
    }
  });
});

describe('the serving model’s evidence (knn-v2)', () => {
  it('uses the learned metric: only knowable launches, and only features the metric weighs', () => {
    const rng = new SeededRandom(5);
    const cut = T;
    const rows: ModelCorpusRecord[] = Array.from({ length: 800 }, (_, i) => {
      const vSolSol = rng.uniform(30, 60);
      const launch = Object.fromEntries(LAUNCH_FEATURE_KEYS.map((k) => [k, rng.uniform(0, 1)])) as LaunchFeatures;
      launch.vSolSol = vSolSol;
      const features: MintFeatures = {
        vSolSol,
        vSolGrowthSol: vSolSol - 30,
        logTrades: 1,
        logUniqueBuyers: 1,
        topBuyerShare: 0.5,
        currentMult: (vSolSol / 30) ** 2,
        buyCount: 1,
        sellCount: 0,
        uniqueBuyers: 1,
        creatorSold: false,
        launch,
      };
      return {
        mint: `v2mint${i}`,
        features,
        graduated: vSolSol > 50,
        observedAt: new Date(cut - 100_000_000 + i * 1000),
        resolvedAt: new Date(i % 4 === 0 ? cut + 1 : cut - 1),
        rugFeatures: null,
        rugged: null,
        sustained30m: null,
        peakMult: null,
        source: 'synthetic',
        ageBucket: 30,
      };
    });
    const model = fitGradProbV2Model(
      rows.map((r): CorpusRow => ({ ...r, ageBucket: 30 })),
      { ageBucket: 30 },
    );
    // As the scorer builds it (the fit's own scale, no pass over the corpus), and with the scale's own pass.
    const index = runSteps(similarLaunchIndexSteps(rows, 30, 'knn-v2', model.metric, model.scaling));
    const passed = runSteps(similarLaunchIndexSteps(rows, 30, 'knn-v2', model.metric));
    const weighed = new Set(Object.entries(model.metric.weights).flatMap(([k, w]) => (w > 0 ? [k] : [])));
    const byMint = new Map(rows.map((r) => [r.mint, r]));
    for (const q of rows.slice(0, 20)) {
      const s = model.score(q.features);
      const evidence = index.of(s.neighbours, q.features, new Date(cut));
      const knowable = s.neighbours.filter((n) => byMint.get(n.mint)!.resolvedAt.getTime() < cut);
      expect(evidence.map((l) => l.mint)).toEqual(knowable.slice(0, SIMILAR_LAUNCHES).map((n) => n.mint));
      // The same launches, distances and outcomes either way; only the per-feature scale may differ.
      const shown = (ls: typeof evidence) => ls.map(({ matched: _, ...l }) => l);
      expect(shown(evidence)).toEqual(shown(passed.of(s.neighbours, q.features, new Date(cut))));
      for (const l of evidence) {
        expect(l.resolvedAt.getTime()).toBeLessThan(cut);
        const row = byMint.get(l.mint)!.features.launch!;
        for (const m of l.matched) {
          expect(weighed.has(m.feature)).toBe(true);
          // On the fit's scale: the raw difference × weight ÷ the index rows' std, as the distance counts it.
          const key = m.feature as keyof LaunchFeatures;
          const j = LAUNCH_FEATURE_KEYS.indexOf(key);
          expect(m.difference).toBeCloseTo((Math.abs(row[key] - q.features.launch![key]) * model.metric.weights[key]!) / model.scaling.std[j]!, 12);
        }
      }
    }
  });
});
