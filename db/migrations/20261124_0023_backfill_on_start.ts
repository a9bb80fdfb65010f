import type { Knex } from 'knex';

// Forward-only. The automatic backfill of a deployment's first start (HISTORY_BACKFILL_ON_START_H): the range the
// first worker chose, stored once, so a restart or a second worker backfills that same range (its workflow id)
// instead of a new "last N hours" each time. One row at most.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('history_backfill_on_start', (t) => {
    t.text('marker').primary();
    t.text('range_id').notNullable();
    t.timestamp('from_at', { useTz: true }).notNullable();
    t.timestamp('to_at', { useTz: true }).notNullable();
    t.integer('hours').notNullable();
    t.integer('chunk_s').notNullable();
    t.integer('chunks').notNullable();
    t.timestamp('requested_at', { useTz: true }).notNullable();
  });
  await knex.raw(`ALTER TABLE history_backfill_on_start ADD CONSTRAINT history_backfill_on_start_one CHECK (marker = 'on-start')`);
}

export async function down(): Promise<void> {
  throw new Error('forward-only migration');
}
