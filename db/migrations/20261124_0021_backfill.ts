import type { Knex } from 'knex';

// Forward-only. The chain backfill's progress (issue 19): one row per time chunk of a backfill (the chunk workflow's
// id), one row per page of signatures it read (written in the transaction that stored the page's launches and
// trades, so the counts are exact across crashes), and the RPC requests spent per UTC day against the daily cap.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('history_backfill_chunks', (t) => {
    t.text('chunk_id').primary();
    t.text('range_id').notNullable().index();
    t.timestamp('from_at', { useTz: true }).notNullable();
    t.timestamp('to_at', { useTz: true }).notNullable();
    t.timestamp('started_at', { useTz: true }).notNullable();
    t.timestamp('completed_at', { useTz: true });
    // Where the next older chunk starts paging (`before`): the oldest signature this chunk listed.
    t.text('last_signature');
  });
  await knex.schema.createTable('history_backfill_pages', (t) => {
    t.text('chunk_id').notNullable();
    t.integer('page').notNullable();
    t.text('before_signature');
    t.text('last_signature');
    t.integer('signatures_seen').notNullable();
    t.integer('in_range').notNullable();
    t.integer('transactions_decoded').notNullable();
    t.integer('launches').notNullable();
    t.integer('trades').notNullable();
    t.integer('graduations').notNullable();
    t.integer('rows_written').notNullable();
    t.integer('requests').notNullable();
    t.timestamp('oldest_block_time', { useTz: true });
    t.timestamp('recorded_at', { useTz: true }).notNullable();
    t.primary(['chunk_id', 'page']);
  });
  await knex.schema.createTable('history_rpc_days', (t) => {
    t.date('day').primary();
    t.integer('requests').notNullable().defaultTo(0);
  });
}

export async function down(): Promise<void> {
  throw new Error('forward-only migration');
}
