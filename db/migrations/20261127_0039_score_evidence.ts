import type { Knex } from 'knex';

// Forward-only. The evidence beside a score.
// predictions.similar_launches: the serving model's nearest neighbours resolved before the score was made, logged
// with it (domain/scoring/similar-launches.ts); null for predictions logged before this, and outside the ledger leaf.
// base_rate_projection: what usually happens from a point on the curve, by virtual-SOL band and age, over a window
// of resolved launches; one row, replaced whole by a scheduled activity so the public read is one primary-key read.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('predictions', (t) => {
    t.jsonb('similar_launches');
  });
  await knex.schema.createTable('base_rate_projection', (t) => {
    // One row: the current projection.
    t.boolean('current').primary().defaultTo(true);
    t.timestamp('computed_at', { useTz: true }).notNullable();
    t.integer('window_days').notNullable();
    t.timestamp('window_from', { useTz: true }).notNullable();
    t.timestamp('window_to', { useTz: true }).notNullable();
    t.timestamp('first_resolved_at', { useTz: true });
    t.timestamp('last_resolved_at', { useTz: true });
    t.text('label_version').notNullable();
    t.text('rug_label_version').notNullable();
    t.integer('launches').notNullable();
    t.jsonb('sources').notNullable();
    t.jsonb('cells').notNullable();
  });
  await knex.raw('ALTER TABLE base_rate_projection ADD CONSTRAINT base_rate_projection_one_row CHECK (current)');
}

export async function down(): Promise<void> {
  throw new Error('forward-only migration');
}
