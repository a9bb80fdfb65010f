import { auc } from '../../../domain/accuracy/forward-metrics';
import { modelFamily } from '../../../domain/scoring/knn-label-model';
import { RUG_FEATURE_KEYS, type RugFeatures } from '../../../domain/scoring/rug-features';
import { MIN_RUG_CORPUS, type RugCorpusRow } from '../../../domain/scoring/rug-model';
import { fitRugV2Model } from '../../../domain/scoring/rug-v2-model';
import { SeededRandom } from '../../../ingest/simulator/seeded-random';

const T0 = Date.parse('2026-10-01T00:00:00Z');

/** Every rug feature random; the label follows the bundle share and the creator's selling only. */
function launch(rng: SeededRandom): { f: RugFeatures; rugged: boolean } {
  const f = Object.fromEntries(RUG_FEATURE_KEYS.map((k) => [k, rng.uniform(0, 1)])) as RugFeatures;
  return { f, rugged: rng.chance(rugChance(f)) };
}

/** The true rug probability of a launch of this corpus. */
const rugChance = (f: RugFeatures) => 0.02 + 0.6 * (0.7 * f.bundlePct + 0.3 * f.creatorSoldShare) ** 2;

function corpus(n: number, seed: number): RugCorpusRow[] {
  const rng = new SeededRandom(seed);
  return Array.from({ length: n }, (_, i) => {
    const { f, rugged } = launch(rng);
    return { mint: `m${String(i).padStart(5, '0')}`, ageBucket: 30, features: f, rugged, observedAt: new Date(T0 + i * 60_000) };
  });
}

describe('rug_prob v2 (learned metric)', () => {
  const rows = corpus(3000, 11);
  const model = fitRugV2Model(rows, { ageBucket: 30 });

  it('is null while warming, below the minimum corpus', () => {
    const small = fitRugV2Model(rows.slice(0, MIN_RUG_CORPUS - 1), { ageBucket: 30 });
    expect(small.status).toBe('warming');
    expect(small.score(rows[0]!.features)).toBeNull();
  });

  it('chooses its weights, k and calibration on the held-out slice and carries them in its version', () => {
    expect(model.status).toBe('live');
    expect(model.metric.heldOutRows).toBe(900);
    expect(model.metric.heldOutLogLoss).toBeGreaterThan(0);
    expect(Object.keys(model.metric.weights)).toEqual([...RUG_FEATURE_KEYS]);
    expect(['platt', 'isotonic', 'isotonic-step']).toContain(model.labels[0]!.calibration.method);
    expect(model.version).toMatch(new RegExp(`^rug-knn-v2@30:3000:k${model.metric.k}:[0-9a-f]{14}$`));
    expect(modelFamily(model.version)).toBe('rug-knn-v2');
    if (model.metric.candidate === 'logistic-axis') {
      // The logistic axis alone: no feature axis at all, the in-family log-odds is the whole distance.
      expect(Object.values(model.metric.weights).every((w) => w === 0)).toBe(true);
      expect(model.metric.logisticAxisWeight).toBe(1);
    } else if (model.metric.candidate !== 'uniform') {
      const w = model.metric.weights;
      const noise = RUG_FEATURE_KEYS.filter((k) => k !== 'bundlePct' && k !== 'creatorSoldShare').map((k) => w[k]!);
      expect(w.bundlePct!).toBeGreaterThan(Math.max(...noise));
    }
  });

  it('ranks fresh launches by their rug risk, inside (0, 1)', () => {
    const fresh = corpus(1500, 12);
    const scored = fresh.map((r) => ({ prob: model.score(r.features)!, label: r.rugged }));
    for (const s of scored) expect(s.prob > 0 && s.prob < 1).toBe(true);
    // Against the ceiling: the true probabilities rank this set at AUC 0.759 (314 rugs, SE ~0.015), so a bar at a
    // fixed 0.75 would test which of two near-equal metrics the held-out choice took, not whether the model ranks.
    const ceiling = auc(fresh.map((r) => ({ prob: rugChance(r.features), label: r.rugged })))!;
    expect(auc(scored)!).toBeGreaterThan(ceiling - 0.03);
  });

  it('the same corpus gives the same version, one changed label another', () => {
    expect(fitRugV2Model(rows, { ageBucket: 30 }).version).toBe(model.version);
    const changed = rows.map((r, i) => (i === 10 ? { ...r, rugged: !r.rugged } : r));
    expect(fitRugV2Model(changed, { ageBucket: 30 }).version).not.toBe(model.version);
  });
});
