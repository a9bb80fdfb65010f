import type { Knex } from 'knex';

// Forward-only. Models: every prediction row carries all the model outputs it was published with (rug,
// runner odds, the still-suspended survival score) and their versions; outcomes carry the labels the new
// models learn from; accuracy and predictor health are projections written by activities.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('predictions', (t) => {
    t.double('rug_prob');
    // {"2x": p, "3x": p, "5x": p, "10x": p, "20x": p}, from the price at as_of; null while warming.
    t.jsonb('runner_odds');
    // Logged forward, published only while the survival gate is live.
    t.double('survival_prob');
    // {"grad_prob": v, "rug_prob": v, "runner_prob": v, "post_grad_survival": v}
    t.jsonb('model_versions');
    // The rug model's feature snapshot; rows logged before it existed have none and stay out of its corpus.
    t.jsonb('rug_features');
    // What else was known at scoring: rug flags, the creator record, bot/quality/activity signals.
    t.jsonb('context');
    t.index(['age_bucket', 'as_of']);
  });

  await knex.schema.alterTable('mint_outcomes', (t) => {
    t.double('peak_mult_from_launch');
    // Graduates with a known 30-minute outcome only (outcome-labels.ts).
    t.boolean('sustained_30m');
    // The rug definition `rugged` was labelled with; it is versioned apart from the others.
    t.text('rug_label_version');
  });
  await knex('mint_outcomes').update({ rug_label_version: 'rug-v1' });
  await knex.raw(
    `UPDATE mint_outcomes o SET peak_mult_from_launch = o.peak_price_sol_24h / ((m.initial_v_sol_lamports::float8 / 1e9) / (m.initial_v_tokens_raw::float8 / 1e6))
     FROM mints m WHERE m.mint = o.mint`,
  );
  await knex.raw('CREATE INDEX mint_outcomes_survival ON mint_outcomes (mint) WHERE sustained_30m IS NOT NULL');

  await knex.schema.alterTable('creators', (t) => {
    t.text('label_version');
    t.timestamp('last_resolved_at', { useTz: true });
  });

  // The latest fit of each predictor at each age, written by the worker that fitted it.
  await knex.schema.createTable('model_fits', (t) => {
    t.text('predictor').notNullable();
    t.smallint('age_bucket').notNullable();
    t.text('version').notNullable();
    t.text('status').notNullable();
    t.integer('samples_total').notNullable();
    t.integer('samples_positive').notNullable();
    t.integer('min_samples').notNullable();
    t.text('calibration_method').notNullable();
    t.integer('calibration_samples').notNullable();
    t.timestamp('fitted_at', { useTz: true }).notNullable();
    t.integer('fit_ms').notNullable();
    t.primary(['predictor', 'age_bucket']);
  });

  // Auto-lift gates (post_grad_survival): state changes only when the evidence says so; `since` dates it.
  await knex.schema.createTable('model_gates', (t) => {
    t.text('name').primary();
    t.text('state').notNullable();
    t.timestamp('since', { useTz: true }).notNullable();
    t.text('reason');
    t.jsonb('evidence').notNullable();
    t.timestamp('evaluated_at', { useTz: true }).notNullable();
  });

  // The accuracy page, recomputed in the background; the API reads one row.
  await knex.schema.createTable('accuracy_reports', (t) => {
    t.text('name').primary();
    t.timestamp('computed_at', { useTz: true }).notNullable();
    t.jsonb('body').notNullable();
  });
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
