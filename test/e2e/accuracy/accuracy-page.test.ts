import { accuracyActivities } from '../../../activities/accuracy';
import { createKnnMintScorer } from '../../../models/mint/knn-mint-scorer';
import { createModelFitStore } from '../../../db/scoring/model-fit-store';
import { createCorpusStore } from '../../../db/mint/corpus-store';
import { createLaunchEventStore } from '../../../db/mint/launch-event-store';
import { createOutcomeStore } from '../../../db/mint/outcome-store';
import { createPredictionStore } from '../../../db/mint/prediction-store';
import type { CreateEvent } from '../../../domain/launch/launch-events';
import { LABEL_VERSION, RUG_LABEL_VERSION, type MintOutcome } from '../../../domain/launch/outcome-labels';
import { SeededRandom } from '../../../ingest/simulator/seeded-random';
import { createLogger } from '../../../platform/logger';
import { areaContext } from '../../support/area-context';
import { useApi } from '../../support/api-harness';
import { typedApi } from '../../support/typed-api';

/**
 * The accuracy page must equal a recomputation from the predictions table. Predictions and outcomes are
 * written through the real stores (as the lifecycle's activities write them), the real recompute activity
 * caches the page, and this test recomputes every figure on its own from plain SQL rows, by definition.
 */
const now = new Date('2026-11-20T12:00:00Z');
const DAY = 86_400_000;

const { t, api } = useApi({ now: () => now });
const http = typedApi(() => api.url);

const addr = (tag: string, i: number) => `${tag}${String(i).padStart(6, '0')}`.padEnd(44, 'x');
const TIERS = [2, 3, 5, 10, 20] as const;
const features = (signal: number) => ({
  vSolSol: 30 + 20 * signal,
  vSolGrowthSol: 20 * signal,
  logTrades: Math.log1p(50 * signal),
  logUniqueBuyers: Math.log1p(30 * signal),
  topBuyerShare: 0.3,
  currentMult: (1 + signal) ** 2,
  buyCount: 10,
  sellCount: 2,
  uniqueBuyers: 8,
  creatorSold: false,
});

/** 400 resolved mints with predictions at 30 s and 60 s whose probabilities carry real (noisy) signal. */
async function seed(): Promise<void> {
  const rng = new SeededRandom(21);
  const events = createLaunchEventStore(t.db);
  const predictions = createPredictionStore(t.db);
  const outcomes = createOutcomeStore(t.db);
  for (let i = 0; i < 400; i++) {
    // Created between 40 and 2 days ago; the oldest fall outside the 30-day window.
    const createdAt = new Date(now.getTime() - (2 + (38 * i) / 400) * DAY);
    const mint = addr('Mint', i);
    const creator = addr('Dev', i % 37);
    const create: CreateEvent = {
      kind: 'create',
      signature: addr('Sig', i).padEnd(88, 'y'),
      ordinal: 0,
      slot: 1000 + i,
      at: createdAt,
      source: 'test',
      mint,
      name: 'T',
      symbol: 'T',
      uri: '',
      bondingCurve: addr('Curve', i),
      creator,
      mayhem: false,
      vSolLamports: 30e9,
      vTokensRaw: 1_073e12,
    };
    await events.writeBatch([create]);
    const graduated = rng.chance(0.15);
    const rugged = !graduated && rng.chance(0.2);
    const peak = graduated ? rng.uniform(3, 40) : rng.uniform(1, 3);
    const ids: { predictionId: number; peakMult24h: number }[] = [];
    for (const age of [30, 60]) {
      const signal = graduated ? rng.uniform(0.3, 1) : rng.uniform(0, 0.7);
      const gradProb = Math.min(0.99, Math.max(0.001, signal * signal));
      const asOf = new Date(createdAt.getTime() + age * 1000);
      // Two model families over time; one mint's 60 s row is logged after its resolution (not forward).
      const family = i < 200 ? 'knn-v1' : 'knn-v2';
      const late = i === 123 && age === 60;
      const r = await predictions.insertOnce({
        mint,
        ageBucket: age,
        asOf,
        predictedAt: late ? new Date(createdAt.getTime() + 2 * DAY) : new Date(asOf.getTime() + 150),
        gradProb,
        rawProb: gradProb,
        modelVersion: `${family}@${age}:${i}:abc`,
        features: features(signal),
        calibration: {},
        priceSol: 3e-8,
        rugProb: i % 5 === 0 ? null : Math.min(0.99, (rugged ? 0.4 : 0.1) + rng.uniform(0, 0.3)),
        runnerOdds: i % 7 === 0 ? null : Object.fromEntries(TIERS.map((x) => [`${x}x`, Math.min(0.99, gradProb / x + 0.01)])),
        survivalProb: graduated ? rng.uniform(0.2, 0.8) : null,
        modelVersions: {
          grad_prob: `${family}@${age}:${i}:abc`,
          rug_prob: `rug-knn-v1@${age}:${i}:d`,
          runner_prob: `runner-knn-v1@${age}:${i}:e`,
          post_grad_survival: `survival-knn-v1@${age}:${i}:f`,
        },
        rugFeatures: {
          bundlePct: rugged ? 0.2 : 0.02,
          bundleSoldShare: 0,
          top10HolderShare: 0.3,
          creatorHoldingShare: 0.01,
          creatorSoldShare: rugged ? 0.5 : 0,
          freshFirst3: 1,
          sniperCount: 1,
          sellShare: 0.1,
          logTrades: 2,
          vSolGrowthSol: 3,
        },
        context: {},
      });
      ids.push({ predictionId: r.id, peakMult24h: age === 30 ? peak : peak * rng.uniform(0.5, 1) });
    }
    const outcome: MintOutcome = {
      labelVersion: LABEL_VERSION,
      graduated,
      timeToGraduationS: graduated ? 600 : null,
      peakPriceSol: 3e-8 * peak,
      finalPriceSol: 3e-8,
      peakMultFromLaunch: peak,
      rugged,
      sustained30m: null,
      // A few outcomes were labelled by the first rug definition: rug accuracy must leave them out.
      rugLabelVersion: i % 11 === 0 ? 'rug-v1' : RUG_LABEL_VERSION,
    };
    await outcomes.recordOutcome(mint, creator, outcome, ids, new Date(createdAt.getTime() + DAY));
    if (graduated) {
      for (const afterS of [300, 900, 1800]) {
        const held = rng.chance(afterS === 300 ? 0.8 : 0.85);
        await outcomes.recordCheckpoint({
          mint,
          afterS,
          observedAt: new Date(createdAt.getTime() + 700_000 + afterS * 1000),
          graduationPriceSol: 1e-6,
          priceSol: held ? 1e-6 : 5e-7,
          held80: held,
          source: 'test',
          error: null,
        });
      }
    }
  }
}

// ---- the independent recomputation, by definition, from SQL rows ----
type Pair = { p: number; y: boolean };
const brier = (xs: Pair[]) => (xs.length ? xs.reduce((s, x) => s + (x.p - (x.y ? 1 : 0)) ** 2, 0) / xs.length : null);
function auc(xs: Pair[]) {
  const pos = xs.filter((x) => x.y);
  const neg = xs.filter((x) => !x.y);
  if (!pos.length || !neg.length) return null;
  let s = 0;
  for (const a of pos) for (const b of neg) s += a.p > b.p ? 1 : a.p === b.p ? 0.5 : 0;
  return s / (pos.length * neg.length);
}
const BANDS = [0, 0.05, 0.1, 0.25, 0.5, 0.7, 0.9, 1];
/** Band index: [lo, hi) except the last, which holds 1. */
const bandOf = (p: number) => {
  for (let b = 0; b < BANDS.length - 2; b++) if (p < BANDS[b + 1]!) return b;
  return BANDS.length - 2;
};

describe('GET /api/accuracy', () => {
  it('answers 503 before the first background computation', async () => {
    const r = await http.GET('/api/accuracy');
    expect(r.response.status).toBe(503);
  });

  it('equals a recomputation from the predictions table joined with outcomes', async () => {
    await seed();
    const result = await accuracyActivities.create(areaContext(t.db, { now: () => now })).recomputeAccuracy();
    const r = await http.GET('/api/accuracy');
    expect(r.response.status).toBe(200);
    const body = r.data!;

    const rows: {
      mint: string;
      age_bucket: number;
      grad_prob: number;
      model_version: string;
      rug_prob: number | null;
      runner_odds: Record<string, number> | null;
      graduated: boolean;
      peak_mult_24h: number;
      rugged: boolean;
      rug_label_version: string;
      predicted_at: Date;
    }[] = (
      await t.db.raw(
        `
        SELECT p.mint, p.age_bucket, p.grad_prob, p.model_version, p.rug_prob, p.runner_odds, p.predicted_at, po.graduated, po.peak_mult_24h, o.rugged, o.rug_label_version
        FROM predictions p JOIN prediction_outcomes po ON po.prediction_id = p.id JOIN mint_outcomes o ON o.mint = p.mint
        WHERE p.predicted_at >= ? AND p.predicted_at < po.resolved_at`,
        [new Date(now.getTime() - 30 * DAY)],
      )
    ).rows;
    expect(result.predictions).toBe(rows.length);
    expect(rows.length).toBeGreaterThan(400); // the window cut some mints and the late row, not most
    expect(rows.length).toBeLessThan(800);

    for (const family of ['knn-v1', 'knn-v2']) {
      const fam = rows.filter((x) => x.model_version.startsWith(`${family}@`));
      const pairs = fam.map((x) => ({ p: x.grad_prob, y: x.graduated }));
      const m = body.grad_prob.find((g) => g.model_version === family)!;
      expect(m.n).toBe(fam.length);
      expect(m.brier).toBeCloseTo(brier(pairs)!, 12);
      expect(m.auc).toBeCloseTo(auc(pairs)!, 12);
      expect(m.first_predicted_at).toBe(new Date(Math.min(...fam.map((x) => x.predicted_at.getTime()))).toISOString());
      for (const age of [30, 60]) {
        for (let b = 0; b < 7; b++) {
          const inCell = fam.filter((x) => x.age_bucket === age && bandOf(x.grad_prob) === b);
          const cell = m.calibration.find((c) => c.age_bucket === age && c.confidence_band.lo === BANDS[b])!;
          expect(cell.n).toBe(inCell.length);
          if (inCell.length) {
            expect(cell.historical_actual_rate).toBeCloseTo(inCell.filter((x) => x.graduated).length / inCell.length, 12);
            expect(cell.mean_predicted).toBeCloseTo(inCell.reduce((s, x) => s + x.grad_prob, 0) / inCell.length, 12);
          } else expect(cell.historical_actual_rate).toBeNull();
        }
      }
      for (const t of [0.5, 0.7, 0.9]) {
        const kept = fam.filter((x) => x.grad_prob >= t);
        const band = m.threshold_bands.find((x) => x.min_prob === t);
        const base = fam.filter((x) => x.graduated).length / fam.length;
        const precision = kept.length ? kept.filter((x) => x.graduated).length / kept.length : null;
        expect(band).toEqual({
          min_prob: t,
          n: kept.length,
          graduated: kept.filter((x) => x.graduated).length,
          precision,
          // The period's base rate beside the precision: the same family's predictions in the window.
          base_rate: base,
          lift: precision === null ? null : precision / base,
        });
      }
    }
    // The current family (the latest logged prediction's) comes first.
    const latest = (await t.db('predictions').orderBy('predicted_at', 'desc').first('model_version')).model_version;
    expect(body.current_model_versions.grad_prob).toBe(latest);
    expect(body.grad_prob[0]!.model_version).toBe(latest.split('@')[0]);

    const rugPairs = rows.filter((x) => x.rug_prob !== null && x.rug_label_version === RUG_LABEL_VERSION).map((x) => ({ p: x.rug_prob!, y: x.rugged }));
    expect(body.rug_prob).toHaveLength(1);
    expect(body.rug_prob[0]).toMatchObject({
      model_version: 'rug-knn-v1',
      target: 'rugged',
      n: rugPairs.length,
      positives: rugPairs.filter((x) => x.y).length,
    });
    expect(body.rug_prob[0]!.auc).toBeCloseTo(auc(rugPairs)!, 12);
    for (const tier of TIERS) {
      const pairs = rows.filter((x) => x.runner_odds !== null).map((x) => ({ p: x.runner_odds![`${tier}x`]!, y: x.peak_mult_24h >= tier }));
      const got = body.runner_prob.find((x) => x.target === `${tier}x`)!;
      expect(got).toMatchObject({ n: pairs.length, positives: pairs.filter((x) => x.y).length });
      expect(got.brier).toBeCloseTo(brier(pairs)!, 12);
    }

    // Base rates per mint from its first call (its lowest age bucket among forward rows).
    const first = new Map<string, (typeof rows)[number]>();
    for (const x of rows) if (!first.has(x.mint) || x.age_bucket < first.get(x.mint)!.age_bucket) first.set(x.mint, x);
    const calls = [...first.values()];
    expect(body.base_rates).toEqual({
      n_mints: calls.length,
      graduation_rate: calls.filter((x) => x.graduated).length / calls.length,
      runner_2x_from_call: calls.filter((x) => x.peak_mult_24h >= 2).length / calls.length,
      runner_5x_from_call: calls.filter((x) => x.peak_mult_24h >= 5).length / calls.length,
    });

    // Sustained: every checkpoint up to 30 min held, the 30 min one included.
    const cps: { mint: string; after_s: number; held_80: boolean | null }[] = await t
      .db('post_grad_checkpoints')
      .where('observed_at', '>=', new Date(now.getTime() - 30 * DAY));
    const byMint = new Map<string, typeof cps>();
    for (const c of cps) byMint.set(c.mint, [...(byMint.get(c.mint) ?? []), c]);
    const labels = [...byMint.values()]
      .map((cs) => (cs.some((c) => c.held_80 === false) ? false : cs.some((c) => c.after_s === 1800 && c.held_80) ? true : null))
      .filter((x) => x !== null);
    expect(labels.length).toBeGreaterThan(10);
    expect(body.post_graduation).toMatchObject({
      n: labels.length,
      sustain_rate_30m: labels.filter(Boolean).length / labels.length,
      checkpoints_min: [5, 15, 30],
    });

    // Far too few graduates to lift the survival gate: suspended, and the evidence says how many it saw.
    expect(body.post_grad_survival).toMatchObject({ state: 'suspended', since: now.toISOString(), gate: { min_n: 300 } });
    expect(body.post_grad_survival.gate.n).toBeGreaterThan(10);
    expect(body.post_grad_survival.reason).toContain('of the 300');
  });

  it('carries the headline the published CLI reads, equal to a recomputation from SQL, the same when recomputed', async () => {
    const rows: { mint: string; age_bucket: number; predicted_at: Date; graduated: boolean; time_to_graduation_s: number | null }[] = (
      await t.db.raw(`
        SELECT p.mint, p.age_bucket, p.predicted_at, po.graduated, o.time_to_graduation_s
        FROM predictions p JOIN prediction_outcomes po ON po.prediction_id = p.id JOIN mint_outcomes o ON o.mint = p.mint
        WHERE p.grad_prob >= 0.7 AND p.predicted_at < po.resolved_at`)
    ).rows;
    // A call per mint: its earliest age bucket at or above 0.70. Scores are taken at creation + age (asOf).
    const first = new Map<string, (typeof rows)[number]>();
    for (const x of rows) if (!first.has(x.mint) || x.age_bucket < first.get(x.mint)!.age_bucket) first.set(x.mint, x);
    const calls = [...first.values()];
    const last = calls.filter((x) => x.predicted_at.getTime() >= now.getTime() - 30 * DAY);
    const figure = (xs: typeof calls) => ({
      status: xs.length >= 30 ? 'ok' : 'warming',
      hit_rate: xs.length ? xs.filter((x) => x.graduated).length / xs.length : null,
      n_resolved: xs.length,
    });
    const runways = last
      .filter((x) => x.graduated)
      .map((x) => x.time_to_graduation_s! - x.age_bucket)
      .sort((a, b) => a - b);
    const months = [...new Set(calls.map((x) => x.predicted_at.toISOString().slice(0, 7)))].sort();
    const expected = {
      min_prob: 0.7,
      last_30d: figure(last),
      lifetime: figure(calls),
      time_to_grad: {
        status: runways.length >= 30 ? 'ok' : 'warming',
        n_grads: runways.length,
        p50_s: Math.round(runways.length % 2 ? runways[runways.length >> 1]! : (runways[runways.length / 2 - 1]! + runways[runways.length / 2]!) / 2),
        under_30s_pct: runways.filter((x) => x <= 30).length / runways.length,
      },
      trajectory: months.map((month) => {
        const inMonth = calls.filter((x) => x.predicted_at.toISOString().startsWith(month));
        return { month, hit_rate: inMonth.filter((x) => x.graduated).length / inMonth.length, n: inMonth.length };
      }),
    };
    expect(calls.length).toBeGreaterThan(10);
    expect(last.length).toBeLessThan(calls.length);
    expect(runways.length).toBeGreaterThan(0);
    // Beside the last 30 days' hit rate, the graduation rate of every mint scored forward in those days.
    const scored: { mint: string; graduated: boolean }[] = (
      await t.db.raw(
        `SELECT DISTINCT p.mint, po.graduated FROM predictions p JOIN prediction_outcomes po ON po.prediction_id = p.id
         WHERE p.predicted_at < po.resolved_at AND p.predicted_at >= ?`,
        [new Date(now.getTime() - 30 * DAY)],
      )
    ).rows;
    Object.assign(expected.last_30d, { base_rate: scored.filter((x) => x.graduated).length / scored.length, base_rate_n_mints: scored.length });
    const r = await http.GET('/api/accuracy');
    expect(r.response.status).toBe(200);
    expect(r.data!.headline).toEqual(expected);

    // Recomputed, the final months come from the report itself, and nothing changes.
    await accuracyActivities.create(areaContext(t.db, { now: () => now })).recomputeAccuracy();
    const again = await http.GET('/api/accuracy');
    expect(again.response.status).toBe(200);
    expect(again.data!.headline).toEqual(expected);
  });

  it('reports predictor health from the worker’s latest fits, warming before any', async () => {
    const before = await http.GET('/api/predictor/health');
    expect(before.response.status).toBe(200);
    expect(before.data!.predictors.length).toBeGreaterThan(0);
    expect(
      before.data!.predictors.every(
        (p) => (p.status === 'warming' || p.status === 'suspended') && p.model_version === null && !p.calibration_fresh && p.backtest === null,
      ),
    ).toBe(true);

    // The real scorer fits every model from the seeded corpus and records its fits: a quick cold-start fit on
    // the newest 50 rows, then the full corpus in the background.
    const scorer = createKnnMintScorer({
      corpusStore: createCorpusStore(t.db),
      modelFitStore: createModelFitStore(t.db),
      refitEveryS: 600,
      corpusLimit: 100_000,
      coldStartCorpus: 50,
      log: createLogger('silent', 'test'),
      now: () => now.getTime(),
    });
    const stop = scorer.startRefitLoop([30]);
    const resolved30 = await t
      .db('predictions as p')
      .join('mint_outcomes as o', 'o.mint', 'p.mint')
      .where('p.age_bucket', 30)
      .select('o.graduated', 'o.rugged', 'o.rug_label_version');
    let fitted = 0;
    for (let i = 0; i < 200 && fitted !== resolved30.length; i++) {
      await new Promise((res) => setTimeout(res, 100));
      fitted = (await t.db('model_fits').where({ predictor: 'grad_prob', age_bucket: 30 }).first())?.samples_total ?? 0;
    }
    stop();
    const r = await http.GET('/api/predictor/health');
    expect(r.response.status).toBe(200);
    const health = r.data!;
    const at30 = (name: string) => health.predictors.find((p) => p.name === name && p.age_bucket === 30)!;
    expect(at30('grad_prob')).toMatchObject({
      status: 'live',
      samples: { total: resolved30.length, positive: resolved30.filter((x) => x.graduated).length, negative: resolved30.filter((x) => !x.graduated).length },
      calibrated_at: now.toISOString(),
      calibration_age_s: 0,
      calibration_fresh: true,
    });
    // Too few rows to hold a slice out for calibration, so no walk-forward backtest either (test/unit covers one).
    expect(at30('grad_prob').backtest).toBeNull();
    // Outcomes labelled by the first rug definition stay out of the rug corpus.
    const rugLabelled = resolved30.filter((x) => x.rug_label_version === RUG_LABEL_VERSION);
    expect(rugLabelled.length).toBeLessThan(resolved30.length);
    expect(at30('rug_prob')).toMatchObject({
      status: 'live',
      samples: { total: rugLabelled.length, positive: rugLabelled.filter((x) => x.rugged).length },
      min_samples: 200,
    });
    expect(at30('post_grad_survival').status).toBe('suspended');
    const scope = await http.GET('/api/scope');
    expect(scope.response.status).toBe(200);
    expect(scope.data!.model_versions['grad_prob@30']).toBe(at30('grad_prob').model_version);
    expect(health.predictors.find((p) => p.name === 'grad_prob' && p.age_bucket === 60)).toMatchObject({
      status: 'warming',
      model_version: null,
    });
  });
});
