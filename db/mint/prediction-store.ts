import type { Knex } from 'knex';

export type NewPrediction = {
  mint: string;
  ageBucket: number;
  asOf: Date;
  predictedAt: Date;
  gradProb: number;
  rawProb: number;
  modelVersion: string;
  features: Record<string, number | boolean>;
  calibration: Record<string, unknown>;
  priceSol: number;
  rugProb: number | null;
  runnerOdds: Record<string, number> | null;
  survivalProb: number | null;
  modelVersions: Record<string, string>;
  rugFeatures: Record<string, number>;
  context: Record<string, unknown>;
};

export type PredictionWithOutcome = {
  id: number;
  mint: string;
  ageBucket: number;
  asOf: Date;
  predictedAt: Date;
  gradProb: number;
  modelVersion: string;
  calibration: Record<string, unknown>;
  priceSol: number;
  graduated: boolean | null;
  peakMult24h: number | null;
  resolvedAt: Date | null;
};

export function createPredictionStore(db: Knex) {
  return {
    /** Immutable and once per (mint, age bucket): a retried activity gets the first row back, never a second. */
    async insertOnce(p: NewPrediction): Promise<{ id: number; gradProb: number; inserted: boolean }> {
      const inserted = await db('predictions')
        .insert({
          mint: p.mint,
          age_bucket: p.ageBucket,
          as_of: p.asOf,
          predicted_at: p.predictedAt,
          grad_prob: p.gradProb,
          raw_prob: p.rawProb,
          model_version: p.modelVersion,
          features: JSON.stringify(p.features),
          calibration: JSON.stringify(p.calibration),
          price_sol: p.priceSol,
          rug_prob: p.rugProb,
          runner_odds: p.runnerOdds === null ? null : JSON.stringify(p.runnerOdds),
          survival_prob: p.survivalProb,
          model_versions: JSON.stringify(p.modelVersions),
          rug_features: JSON.stringify(p.rugFeatures),
          context: JSON.stringify(p.context),
        })
        .onConflict(['mint', 'age_bucket'])
        .ignore()
        .returning(['id', 'grad_prob']);
      if (inserted[0]) return { id: inserted[0].id, gradProb: inserted[0].grad_prob, inserted: true };
      const existing = await db('predictions').where({ mint: p.mint, age_bucket: p.ageBucket }).first('id', 'grad_prob');
      return { id: existing.id, gradProb: existing.grad_prob, inserted: false };
    },

    async byMint(mint: string): Promise<PredictionWithOutcome[]> {
      const rows = await db('predictions as p')
        .leftJoin('prediction_outcomes as o', 'o.prediction_id', 'p.id')
        .where('p.mint', mint)
        .orderBy('p.age_bucket')
        .select('p.*', 'o.graduated', 'o.peak_mult_24h', 'o.resolved_at');
      return rows.map((r) => ({
        id: r.id,
        mint: r.mint,
        ageBucket: r.age_bucket,
        asOf: r.as_of,
        predictedAt: r.predicted_at,
        gradProb: r.grad_prob,
        modelVersion: r.model_version,
        calibration: r.calibration,
        priceSol: r.price_sol,
        graduated: r.graduated ?? null,
        peakMult24h: r.peak_mult_24h ?? null,
        resolvedAt: r.resolved_at ?? null,
      }));
    },
  };
}
export type PredictionStore = ReturnType<typeof createPredictionStore>;
