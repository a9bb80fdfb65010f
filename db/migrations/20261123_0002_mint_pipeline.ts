import type { Knex } from 'knex';

// Forward-only. Facts from the feeds (mints, trades, graduations) are append-only and keyed by the feeds'
// natural keys so every write is idempotent; predictions are immutable, one per (mint, age bucket).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('mints', (t) => {
    t.text('mint').primary();
    t.text('creator').notNullable();
    t.text('name').notNullable();
    t.text('symbol').notNullable();
    t.text('uri').notNullable();
    t.text('bonding_curve').notNullable();
    t.boolean('mayhem').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.text('create_signature').notNullable();
    t.bigInteger('slot');
    t.bigInteger('initial_v_sol_lamports').notNullable();
    t.bigInteger('initial_v_tokens_raw').notNullable();
    t.text('source').notNullable();
    t.timestamp('ingested_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // Outbox: the lifecycle workflow is started after the row is durable; a crash in between is healed by a sweep.
    t.timestamp('workflow_started_at', { useTz: true });
    t.index(['created_at']);
    t.index(['creator', 'created_at']);
  });
  await knex.raw('CREATE INDEX mints_workflow_pending ON mints (created_at) WHERE workflow_started_at IS NULL AND NOT mayhem');

  await knex.schema.createTable('trades', (t) => {
    // Ingest order: lets readers (the live projector) follow new trades incrementally.
    t.bigIncrements('seq');
    t.text('event_key').notNullable().unique();
    t.text('mint').notNullable();
    t.text('signature').notNullable();
    t.timestamp('at', { useTz: true }).notNullable();
    t.bigInteger('slot');
    t.text('trader').notNullable();
    t.boolean('is_buy').notNullable();
    t.bigInteger('sol_lamports').notNullable();
    t.bigInteger('tokens_raw').notNullable();
    t.bigInteger('v_sol_lamports').notNullable();
    t.bigInteger('v_tokens_raw').notNullable();
    t.text('source').notNullable();
    t.index(['mint', 'at']);
    // Wallet history (fresh-wallet flag, wallet index).
    t.index(['trader', 'at']);
  });

  await knex.schema.createTable('mint_graduations', (t) => {
    t.text('mint').primary();
    t.timestamp('completed_at', { useTz: true });
    t.text('complete_signature');
    t.timestamp('migrated_at', { useTz: true });
    t.text('pool');
    t.text('source').notNullable();
    // Outbox for the one graduation signal to the mint's workflow.
    t.timestamp('signalled_at', { useTz: true });
  });
  await knex.raw('CREATE INDEX mint_graduations_unsignalled ON mint_graduations (mint) WHERE signalled_at IS NULL');

  await knex.schema.createTable('predictions', (t) => {
    t.bigIncrements('id');
    t.text('mint').notNullable();
    t.smallint('age_bucket').notNullable();
    t.timestamp('as_of', { useTz: true }).notNullable();
    t.timestamp('predicted_at', { useTz: true }).notNullable();
    t.double('grad_prob').notNullable();
    t.double('raw_prob').notNullable();
    t.text('model_version').notNullable();
    t.jsonb('features').notNullable();
    t.jsonb('calibration').notNullable();
    t.double('price_sol').notNullable();
    t.unique(['mint', 'age_bucket']);
    t.index(['predicted_at']);
  });

  await knex.schema.createTable('mint_outcomes', (t) => {
    t.text('mint').primary();
    t.text('label_version').notNullable();
    t.boolean('graduated').notNullable();
    t.double('time_to_graduation_s');
    t.double('peak_price_sol_24h').notNullable();
    t.boolean('rugged').notNullable();
    t.timestamp('resolved_at', { useTz: true }).notNullable();
    t.index(['resolved_at']);
  });

  await knex.schema.createTable('prediction_outcomes', (t) => {
    t.bigInteger('prediction_id').primary().references('predictions.id');
    t.text('label_version').notNullable();
    t.boolean('graduated').notNullable();
    t.double('peak_mult_24h').notNullable();
    t.timestamp('resolved_at', { useTz: true }).notNullable();
  });

  await knex.schema.createTable('post_grad_checkpoints', (t) => {
    t.text('mint').notNullable();
    // Seconds after graduation (300, 900, 1800 in production).
    t.integer('after_s').notNullable();
    t.timestamp('observed_at', { useTz: true }).notNullable();
    t.double('graduation_price_sol');
    t.double('price_sol');
    t.boolean('held_80');
    t.text('source').notNullable();
    t.text('error');
    t.primary(['mint', 'after_s']);
  });

  await knex.schema.createTable('creators', (t) => {
    t.text('creator').primary();
    t.integer('n_launches').notNullable();
    t.integer('n_resolved').notNullable();
    t.integer('n_graduated').notNullable();
    t.integer('n_5x').notNullable();
    t.integer('n_rugged').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });

  // The projector's output: one pre-serialized snapshot of the live list, replaced every refresh.
  await knex.schema.createTable('live_snapshots', (t) => {
    t.text('name').primary();
    t.bigInteger('version').notNullable();
    t.timestamp('built_at', { useTz: true }).notNullable();
    t.integer('count').notNullable();
    t.text('body').notNullable();
  });

  await knex.schema.createTable('ingest_feed_stats', (t) => {
    t.text('feed').primary();
    t.jsonb('stats').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
