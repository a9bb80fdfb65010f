import { LABEL_VERSION, RUG_LABEL_VERSION } from '../../domain/launch/outcome-labels';
import { SeededRandom } from '../../ingest/simulator/seeded-random';
import type { KnexDb } from '../../db/knex-handle';

const DAY = 86_400_000;

/**
 * `n` resolved mints days before `now`, each scored forward at 30 s and 60 s by the served champion (`knn-v1`, in
 * `predictions`) and by the challenger `knn-v1-k25` in shadow (`shadow_predictions`), with their outcomes. The
 * challenger's probabilities carry the outcome (graduates high, the rest low); the champion's are the base rate with
 * noise, so the challenger's paired log loss is lower by construction: synthetic evidence for the rule's machinery,
 * not a claim about either model.
 */
export async function seedShadowEvidence(db: KnexDb, now: Date, n: number, seed = 5): Promise<{ mints: string[]; graduates: number }> {
  const rng = new SeededRandom(seed);
  const mints: string[] = [];
  const predictions: Record<string, unknown>[] = [];
  const shadows: Record<string, unknown>[] = [];
  const outcomes: Record<string, unknown>[] = [];
  let graduates = 0;
  for (let i = 0; i < n; i++) {
    const mint = `Shadow${String(i).padStart(6, '0')}`.padEnd(44, 'x');
    mints.push(mint);
    const createdAt = new Date(now.getTime() - (2 + (5 * i) / n) * DAY);
    const graduated = rng.chance(0.06);
    if (graduated) graduates++;
    for (const age of [30, 60]) {
      const asOf = new Date(createdAt.getTime() + age * 1000);
      const predictedAt = new Date(asOf.getTime() + 100);
      const champion = rng.uniform(0.03, 0.09);
      const challenger = graduated ? rng.uniform(0.2, 0.6) : rng.uniform(0.005, 0.05);
      predictions.push({
        mint,
        age_bucket: age,
        as_of: asOf,
        predicted_at: predictedAt,
        grad_prob: champion,
        raw_prob: champion,
        model_version: `knn-v1@${age}:5000:seeded`,
        features: JSON.stringify({ vSolSol: 30 + 10 * champion }),
        calibration: JSON.stringify({
          age_bucket: age,
          confidence_band: { lo: 0, hi: 0.1 },
          n: 0,
          historical_actual_rate: null,
          model_version: `knn-v1@${age}:5000:seeded`,
        }),
        price_sol: 3e-8,
      });
      shadows.push({
        mint,
        age_bucket: age,
        model_name: 'knn-v1-k25',
        model_version: `knn-v1-k25@${age}:5000:seeded`,
        as_of: asOf,
        predicted_at: predictedAt,
        grad_prob: challenger,
      });
    }
    outcomes.push({
      mint,
      label_version: LABEL_VERSION,
      graduated,
      time_to_graduation_s: graduated ? 600 : null,
      peak_price_sol_24h: 3e-8,
      rugged: false,
      rug_label_version: RUG_LABEL_VERSION,
      resolved_at: new Date(createdAt.getTime() + DAY),
    });
  }
  for (let i = 0; i < predictions.length; i += 1000) await db('predictions').insert(predictions.slice(i, i + 1000));
  for (let i = 0; i < shadows.length; i += 1000) await db('shadow_predictions').insert(shadows.slice(i, i + 1000));
  for (let i = 0; i < outcomes.length; i += 1000) await db('mint_outcomes').insert(outcomes.slice(i, i + 1000));
  return { mints, graduates };
}
