import type { Knex } from 'knex';

// Forward-only. History the models learn from that this deployment did not predict itself: the simulator's seeded
// history (embedded default) and, later, chain backfills. One row per (mint, scoring age) with the features
// production would have logged at that age and the labels at 24 h. These rows never join `predictions`, so no
// forward accuracy figure can include them.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('history_observations', (t) => {
    t.text('mint').notNullable();
    t.smallint('age_bucket').notNullable();
    // 'synthetic' (seeded by the simulator) or 'backfill' (read from the chain).
    t.text('source').notNullable();
    // The run that wrote it (e.g. "synthetic:seed=42"), so a run can be recognised as done and never loaded twice.
    t.text('run_id').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('as_of', { useTz: true }).notNullable();
    t.jsonb('features').notNullable();
    t.jsonb('rug_features').notNullable();
    t.text('label_version').notNullable();
    t.boolean('graduated').notNullable();
    t.text('rug_label_version').notNullable();
    t.boolean('rugged').notNullable();
    t.boolean('sustained_30m');
    t.float('peak_mult_24h').notNullable();
    t.timestamp('resolved_at', { useTz: true }).notNullable();
    t.primary(['mint', 'age_bucket']);
    t.index(['age_bucket', 'as_of']);
  });
  await knex.raw(`ALTER TABLE history_observations ADD CONSTRAINT history_observations_source CHECK (source IN ('synthetic', 'backfill'))`);
  // One row per history run: a run marked complete is skipped on the next start.
  await knex.schema.createTable('history_runs', (t) => {
    t.text('run_id').primary();
    t.text('source').notNullable();
    t.timestamp('started_at', { useTz: true }).notNullable();
    t.timestamp('completed_at', { useTz: true });
    t.integer('mints').notNullable().defaultTo(0);
  });
}

export async function down(): Promise<void> {
  throw new Error('forward-only migration');
}
