import type { Knex } from 'knex';

// Forward-only. The from-now runner model's corpus and its forward log.
// runner_observations: one row per resolved mint per grid age (domain/scoring/runner-grid.ts), its features as they
// stood at that age and the peak after it ÷ the price at it, computed from stored trades when the mint resolves (or
// by a history run). runner_odds_published: the from-now odds the live list published, once per mint per grid age
// (its first refresh in that age band), with the price and age they start from; resolved at the mint's horizon
// against the peak after publication, so /api/accuracy can say how odds "from the price at the time" fared.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('runner_observations', (t) => {
    t.text('mint').notNullable();
    t.integer('age_s').notNullable();
    // 'live' (this deployment resolved it), 'synthetic' or 'backfill' (history).
    t.text('source').notNullable();
    t.timestamp('as_of', { useTz: true }).notNullable();
    t.jsonb('features').notNullable();
    t.double('price_sol').notNullable();
    t.double('peak_mult_24h').notNullable();
    t.text('label_version').notNullable();
    t.timestamp('resolved_at', { useTz: true }).notNullable();
    t.primary(['mint', 'age_s']);
    // The corpus read: newest rows of one age.
    t.index(['age_s', 'as_of']);
  });
  await knex.schema.createTable('runner_odds_published', (t) => {
    t.text('mint').notNullable();
    t.integer('grid_age_s').notNullable();
    t.double('age_s').notNullable();
    t.timestamp('published_at', { useTz: true }).notNullable();
    t.double('price_sol').notNullable();
    t.jsonb('odds').notNullable();
    t.text('model_version').notNullable();
    t.text('label_version');
    t.double('peak_mult_24h');
    t.timestamp('resolved_at', { useTz: true });
    t.primary(['mint', 'grid_age_s']);
    // The accuracy read: resolved rows in a window.
    t.index(['resolved_at']);
  });
}

export async function down(): Promise<void> {
  throw new Error('forward-only migration');
}
