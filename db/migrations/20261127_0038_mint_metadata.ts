import type { Knex } from 'knex';

// Forward-only. What each launch's metadata URI gave when it was fetched: one row per mint, written only by the
// metadata fetcher's activity (an upsert on the mint, so a retried activity changes nothing twice). A row that is not
// `final` is retried at `next_attempt_at`; the partial index serves that look, the primary key the anti-join that
// finds mints without a row and the read model's join.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('mint_metadata', (t) => {
    t.text('mint').primary().references('mint').inTable('mints');
    t.text('uri').notNullable();
    t.timestamp('fetched_at', { useTz: true }).notNullable();
    // ok, http_error, too_large, timeout, refused, invalid_json, unsupported_uri, connection_failed, too_many_redirects
    t.text('outcome').notNullable();
    t.text('reason');
    t.boolean('has_socials');
    t.boolean('metadata_ok');
    t.integer('attempts').notNullable();
    t.boolean('final').notNullable();
    t.timestamp('next_attempt_at', { useTz: true });
  });
  await knex.raw('CREATE INDEX mint_metadata_retry_due ON mint_metadata (next_attempt_at) WHERE NOT final');
}

export async function down(): Promise<void> {
  throw new Error('forward-only migration');
}
