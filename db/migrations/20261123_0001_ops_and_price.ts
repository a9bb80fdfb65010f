import type { Knex } from 'knex';

// Forward-only: never edit a migration once it has landed; add a new one.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('daemon_heartbeats', (t) => {
    t.text('name').notNullable();
    t.text('instance').notNullable();
    t.timestamp('started_at', { useTz: true }).notNullable();
    t.timestamp('last_seen_at', { useTz: true }).notNullable();
    t.primary(['name', 'instance']);
    t.index(['name', 'last_seen_at']);
  });

  await knex.schema.createTable('watchdog_ticks', (t) => {
    t.bigIncrements('id');
    // The tick's workflow id: a retried write activity lands on the same row.
    t.text('tick_key').notNullable().unique();
    t.timestamp('at', { useTz: true }).notNullable();
    t.text('disk_path').notNullable();
    t.bigInteger('disk_total_bytes').notNullable();
    t.bigInteger('disk_free_bytes').notNullable();
    t.bigInteger('mem_total_bytes').notNullable();
    t.bigInteger('mem_available_bytes').notNullable();
    t.integer('stuck_count').notNullable();
    t.jsonb('stuck_by_type').notNullable();
    t.jsonb('stale_heartbeats').notNullable();
    t.index(['at']);
  });

  await knex.schema.createTable('health_alerts', (t) => {
    t.bigIncrements('id');
    t.text('code').notNullable();
    t.text('severity').notNullable();
    t.text('message').notNullable();
    t.double('value').notNullable();
    t.double('threshold').notNullable();
    t.timestamp('raised_at', { useTz: true }).notNullable();
    t.timestamp('last_seen_at', { useTz: true }).notNullable();
    t.timestamp('cleared_at', { useTz: true });
  });
  // At most one open alert per code; raising again refreshes it instead of duplicating it.
  await knex.raw('CREATE UNIQUE INDEX health_alerts_open_code ON health_alerts (code) WHERE cleared_at IS NULL');

  await knex.schema.createTable('native_coin_prices', (t) => {
    t.bigIncrements('id');
    t.text('symbol').notNullable();
    t.text('mint').notNullable();
    t.double('usd').notNullable();
    t.text('source').notNullable();
    t.timestamp('fetched_at', { useTz: true }).notNullable();
    t.unique(['symbol', 'source', 'fetched_at']);
    t.index(['symbol', 'fetched_at']);
  });

  await knex.schema.createTable('price_source_status', (t) => {
    t.text('source').primary();
    t.timestamp('last_attempt_at', { useTz: true }).notNullable();
    t.timestamp('last_success_at', { useTz: true });
    t.text('last_error');
    t.integer('consecutive_failures').notNullable().defaultTo(0);
  });
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
