import type { Knex } from 'knex';
import type { MintOutcome } from '../../domain/mint/outcome-labels';

export type Checkpoint = { mint: string; afterS: number; observedAt: Date; graduationPriceSol: number | null; priceSol: number | null; held80: boolean | null; source: string; error: string | null };

/** Outcomes and checkpoints: written by activities, idempotent on their natural keys. */
export function createOutcomeStore(db: Knex) {
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

    async checkpointPrices(mint: string): Promise<number[]> {
      const rows = await db('post_grad_checkpoints').where({ mint }).whereNotNull('price_sol').select('price_sol');
      return rows.map((r) => r.price_sol);
    },

    /** Writes the mint's outcome and each prediction's, then recomputes its creator's record from resolved facts. */
    async recordOutcome(mint: string, creator: string, o: MintOutcome, perPrediction: { predictionId: number; peakMult24h: number }[], resolvedAt: Date): Promise<void> {
      await db.transaction(async (trx) => {
        await trx('mint_outcomes')
          .insert({
            mint,
            label_version: o.labelVersion,
            graduated: o.graduated,
            time_to_graduation_s: o.timeToGraduationS,
            peak_price_sol_24h: o.peakPriceSol,
            rugged: o.rugged,
            resolved_at: resolvedAt,
          })
          .onConflict('mint')
          .ignore();
        if (perPrediction.length) {
          await trx('prediction_outcomes')
            .insert(perPrediction.map((p) => ({ prediction_id: p.predictionId, label_version: o.labelVersion, graduated: o.graduated, peak_mult_24h: p.peakMult24h, resolved_at: resolvedAt })))
            .onConflict('prediction_id')
            .ignore();
        }
        // Recomputed, not incremented: a retried activity cannot count a launch twice.
        await trx.raw(
          `INSERT INTO creators (creator, n_launches, n_resolved, n_graduated, n_5x, n_rugged, updated_at)
           SELECT m.creator, count(*), count(o.mint), count(*) FILTER (WHERE o.graduated),
                  count(*) FILTER (WHERE o.peak_price_sol_24h >= 5 * (m.initial_v_sol_lamports::float8 / 1e9) / (m.initial_v_tokens_raw::float8 / 1e6)),
                  count(*) FILTER (WHERE o.rugged), ?
           FROM mints m LEFT JOIN mint_outcomes o ON o.mint = m.mint
           WHERE m.creator = ?
           GROUP BY m.creator
           ON CONFLICT (creator) DO UPDATE SET n_launches = EXCLUDED.n_launches, n_resolved = EXCLUDED.n_resolved,
             n_graduated = EXCLUDED.n_graduated, n_5x = EXCLUDED.n_5x, n_rugged = EXCLUDED.n_rugged, updated_at = EXCLUDED.updated_at`,
          [resolvedAt, creator],
        );
      });
    },
  };
}
export type OutcomeStore = ReturnType<typeof createOutcomeStore>;
