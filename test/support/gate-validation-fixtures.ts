import { createPredictionStore } from '../../db/mint/prediction-store';
import { createOutcomeStore } from '../../db/mint/outcome-store';
import { insertTestCross } from './composite-fixtures';
import type { KnexDb } from '../../db/knex-handle';

/**
 * A hand-built gate-validation fire, written as the pipeline writes it: a composite cross delivered with a tier, a
 * 30 s prediction logging the survival score before the delivery, the graduation, and the DEX checkpoints at 5, 15
 * and 30 min after it. `reached`: true puts a checkpoint at exactly 2× the entry (the boundary counts), false keeps
 * every price at 1.99×, null writes checkpoints whose price source failed (outcome unknown).
 */
export type FireSpec = { survival: number | null; reached: boolean | null; bundle?: boolean; manufacturedPump?: boolean | null };

export async function insertGateFire(db: KnexDb, crossedAtMs: number, f: FireSpec): Promise<string> {
  const x = await insertTestCross(db, { crossedAtMs });
  const entry = x.cross.priceSol;
  const tieredAt = new Date(crossedAtMs + 20_000);
  await db.raw(
    `UPDATE composite_predictions SET tier = 'ACT', gp_60 = 0.3, tiered_at = ?,
       features = jsonb_set(jsonb_set(features, '{facts,signals,bot,bundle_detected}', ?::jsonb), '{facts,signals,bot,manufactured_pump}', ?::jsonb)
     WHERE id = ?`,
    [tieredAt, JSON.stringify(f.bundle ?? false), JSON.stringify(f.manufacturedPump ?? null), x.id],
  );
  if (f.survival !== null) await logSurvival(db, x.mint, crossedAtMs - 10_000, f.survival, entry);
  const graduatedAtMs = crossedAtMs + 10 * 60_000;
  await db('mint_graduations').insert({ mint: x.mint, completed_at: new Date(graduatedAtMs), source: 'test' });
  const outcomes = createOutcomeStore(db);
  for (const afterS of [300, 900, 1800]) {
    const price = f.reached === null ? null : f.reached && afterS === 900 ? 2 * entry : 1.99 * entry;
    await outcomes.recordCheckpoint({
      mint: x.mint,
      afterS,
      observedAt: new Date(graduatedAtMs + afterS * 1000 + 1500),
      graduationPriceSol: 1.5 * entry,
      priceSol: price,
      held80: null,
      source: 'test',
      error: price === null ? 'price source down' : null,
    });
  }
  return x.mint;
}

/** `n` fires alike, `hits` of which reach 2×, crossed 30 s apart from `fromMs`. */
export async function insertGateFires(db: KnexDb, fromMs: number, o: { n: number; hits: number; survival: number | null; bundle?: boolean }) {
  for (let i = 0; i < o.n; i++) {
    await insertGateFire(db, fromMs + i * 30_000, { survival: o.survival, reached: i < o.hits, bundle: o.bundle });
  }
}

/** A 30 s prediction of `mint` logged at `asOfMs` with the survival score `survival`, as the lifecycle logs it. */
export async function logSurvival(db: KnexDb, mint: string, asOfMs: number, survival: number, priceSol: number): Promise<void> {
  await createPredictionStore(db).insertOnce({
    mint,
    ageBucket: 30,
    asOf: new Date(asOfMs),
    predictedAt: new Date(asOfMs),
    gradProb: 0.3,
    rawProb: 0.3,
    modelVersion: 'knn-v1@30:0:x',
    features: {},
    calibration: {},
    priceSol,
    rugProb: null,
    runnerOdds: null,
    survivalProb: survival,
    modelVersions: { grad_prob: 'knn-v1@30:0:x', post_grad_survival: 'survival-knn-v1@30:0:x' },
    rugFeatures: {},
    context: {},
  });
}
