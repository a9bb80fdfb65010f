import type { Knex } from 'knex';

// Forward-only. Each fit keeps its walk-forward backtest (the held-out newest slice of its corpus scored against
// the earlier rows: n, positives, AUC, band cells), so the accuracy page has figures before forward outcomes exist.
// Null for fits recorded before this.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('model_fits', (t) => {
    t.jsonb('backtest');
  });
}

export async function down(): Promise<void> {
  throw new Error('forward-only migration');
}
