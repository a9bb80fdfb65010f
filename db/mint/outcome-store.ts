import type { MintOutcome } from '../../domain/launch/outcome-labels';
import { recomputeCreator } from './creator-store';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export type Checkpoint = {
  mint: string;
  afterS: number;
  observedAt: Date;
  graduationPriceSol: number | null;
  priceSol: number | null;
  held80: boolean | null;
  source: string;
  error: string | null;
};

/** Outcomes and checkpoints: written by activities, idempotent on their natural keys. */
export function createOutcomeStore(handle: Db) {
  const db = knexOf(handle);
  return {
    async recordCheckpoint(c: Checkpoint): Promise<void> {
      await db('post_grad_checkpoints')
        .insert({
          mint: c.mint,
          after_s: c.afterS,
          observed_at: c.observedAt,
          graduation_price_sol: c.graduationPriceSol,
          price_sol: c.priceSol,
          held_80: c.held80,
          source: c.source,
          error: c.error,
        })
        .onConflict(['mint', 'after_s'])
        .ignore();
    },

    async checkpoints(mint: string): Promise<{ afterS: number; priceSol: number | null; held80: boolean | null }[]> {
      const rows = await db('post_grad_checkpoints').where({ mint }).orderBy('after_s').select('after_s', 'price_sol', 'held_80');
      return rows.map((r) => ({ afterS: r.after_s, priceSol: r.price_sol, held80: r.held_80 }));
    },

    /** Writes the mint's outcome and each prediction's, then recomputes its creator's record from resolved facts. */
    async recordOutcome(
      mint: string,
      creator: string,
      o: MintOutcome,
      perPrediction: { predictionId: number; peakMult24h: number }[],
      resolvedAt: Date,
    ): Promise<void> {
      await db.transaction(async (trx) => {
        await trx('mint_outcomes')
          .insert({
            mint,
            label_version: o.labelVersion,
            graduated: o.graduated,
            time_to_graduation_s: o.timeToGraduationS,
            peak_price_sol_24h: o.peakPriceSol,
            rugged: o.rugged,
            rug_label_version: o.rugLabelVersion,
            peak_mult_from_launch: o.peakMultFromLaunch,
            sustained_30m: o.sustained30m,
            resolved_at: resolvedAt,
          })
          .onConflict('mint')
          .ignore();
        if (perPrediction.length) {
          await trx('prediction_outcomes')
            .insert(
              perPrediction.map((p) => ({
                prediction_id: p.predictionId,
                label_version: o.labelVersion,
                graduated: o.graduated,
                peak_mult_24h: p.peakMult24h,
                resolved_at: resolvedAt,
              })),
            )
            .onConflict('prediction_id')
            .ignore();
        }
        await recomputeCreator(trx, creator, o.labelVersion, o.rugLabelVersion, resolvedAt);
      });
    },
  };
}
export type OutcomeStore = ReturnType<typeof createOutcomeStore>;
