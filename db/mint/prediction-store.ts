import { predictionFields, type PredictionFields } from '../ledger/prediction-row';
import type { SimilarLaunches } from '../../domain/scoring/similar-launches';
import { isLedgerSealedError, LedgerHourSealedError } from '../ledger/ledger-seal-store';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export type NewPrediction = {
  mint: string;
  ageBucket: number;
  asOf: Date;
  predictedAt: Date;
  gradProb: number;
  rawProb: number;
  modelVersion: string;
  /** The feature snapshot; the knn-v2 features nest under `launch` (domain/scoring/mint-features.ts). */
  features: Record<string, number | boolean | Readonly<Record<string, number>>>;
  calibration: Record<string, unknown>;
  priceSol: number;
  rugProb: number | null;
  runnerOdds: Record<string, number> | null;
  survivalProb: number | null;
  modelVersions: Record<string, string>;
  rugFeatures: Record<string, number>;
  context: Record<string, unknown>;
  /** The score's evidence (domain/scoring/similar-launches.ts); absent for writers that have none. */
  similarLaunches?: SimilarLaunches;
};

export type PredictionWithOutcome = PredictionFields & {
  calibration: Record<string, unknown>;
  graduated: boolean | null;
  peakMult24h: number | null;
  resolvedAt: Date | null;
};

export function createPredictionStore(handle: Db) {
  const db = knexOf(handle);
  return {
    /**
     * Immutable and once per (mint, age bucket): a retried activity gets the first row back, never a second. A row
     * whose hour the ledger has already sealed is refused by the database (`LedgerHourSealedError`), unless it exists.
     */
    async insertOnce(p: NewPrediction): Promise<{ id: number; gradProb: number; inserted: boolean }> {
      const existing = () => db('predictions').where({ mint: p.mint, age_bucket: p.ageBucket }).first('id', 'grad_prob');
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
          similar_launches: p.similarLaunches ? JSON.stringify(p.similarLaunches) : null,
        })
        .onConflict(['mint', 'age_bucket'])
        .ignore()
        .returning(['id', 'grad_prob'])
        .catch(async (e: unknown) => {
          // The seal trigger runs before the conflict check: a retry of a row stored earlier is refused too.
          if (isLedgerSealedError(e) && (await existing())) return [];
          throw isLedgerSealedError(e) ? new LedgerHourSealedError((e as Error).message) : e;
        });
      if (inserted[0]) return { id: inserted[0].id, gradProb: inserted[0].grad_prob, inserted: true };
      const row = await existing();
      return { id: row.id, gradProb: row.grad_prob, inserted: false };
    },

    /** `insertOnce`, with a refusal by the ledger's seal as a result rather than an error. */
    async insertUnlessSealed(p: NewPrediction): Promise<{ id: number; gradProb: number; inserted: boolean } | { refused: 'ledger_hour_sealed' }> {
      try {
        return await this.insertOnce(p);
      } catch (e) {
        if (e instanceof LedgerHourSealedError) return { refused: 'ledger_hour_sealed' };
        throw e;
      }
    },

    async byMint(mint: string): Promise<PredictionWithOutcome[]> {
      const rows = await db('predictions as p')
        .leftJoin('prediction_outcomes as o', 'o.prediction_id', 'p.id')
        .where('p.mint', mint)
        .orderBy('p.age_bucket')
        .select('p.*', 'o.graduated', 'o.peak_mult_24h', 'o.resolved_at');
      return rows.map((r) => ({
        ...predictionFields(r),
        calibration: r.calibration,
        graduated: r.graduated ?? null,
        peakMult24h: r.peak_mult_24h ?? null,
        resolvedAt: r.resolved_at ?? null,
      }));
    },
  };
}
export type PredictionStore = ReturnType<typeof createPredictionStore>;
