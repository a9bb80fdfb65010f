import { isLedgerSealedError, LedgerHourSealedError } from '../ledger/ledger-seal-store';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export type NewShadowPrediction = {
  mint: string;
  ageBucket: number;
  modelName: string;
  modelVersion: string;
  asOf: Date;
  predictedAt: Date;
  gradProb: number;
};

/**
 * The scorer's side of shadow scoring: it logs the shadow versions' scores beside the served one, and asks which
 * version serves now (the latest promotion the accuracy area decided, or the configured champion).
 */
export function createShadowScoreStore(handle: Db) {
  const db = knexOf(handle);
  return {
    /** Idempotent per (mint, age, version); a row whose hour the ledger sealed is refused (`LedgerHourSealedError`). */
    async insertShadow(rows: readonly NewShadowPrediction[]): Promise<void> {
      if (!rows.length) return;
      await db('shadow_predictions')
        .insert(
          rows.map((r) => ({
            mint: r.mint,
            age_bucket: r.ageBucket,
            model_name: r.modelName,
            model_version: r.modelVersion,
            as_of: r.asOf,
            predicted_at: r.predictedAt,
            grad_prob: r.gradProb,
          })),
        )
        .onConflict(['mint', 'age_bucket', 'model_name'])
        .ignore()
        .catch((e: unknown) => {
          throw isLedgerSealedError(e) ? new LedgerHourSealedError((e as Error).message) : e;
        });
    },

    /** The version serving now: the latest promoted challenger, or the configured champion before any promotion. */
    async currentChampion(configured: string): Promise<string> {
      const r = await db('model_promotions').where({ decision: 'promote' }).orderBy('decided_at', 'desc').orderBy('id', 'desc').first('challenger');
      return r?.challenger ?? configured;
    },
  };
}
export type ShadowScoreStore = ReturnType<typeof createShadowScoreStore>;
