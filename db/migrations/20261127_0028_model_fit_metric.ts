import type { Knex } from 'knex';

// Forward-only. The learned k-NN metric of a fit (feature weights, k, held-out log loss, the winning candidate), so
// /api/predictor/health and /api/scope can show what each refit chose. Null for families without one (knn-v1).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('model_fits', (t) => {
    t.jsonb('metric').nullable();
  });
}

export async function down(): Promise<void> {
  throw new Error('forward-only migration');
}
