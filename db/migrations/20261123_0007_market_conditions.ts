import type { Knex } from 'knex';

// Forward-only. Hourly market rollups (the 35-day history the temperature index ranks against) and the latest
// computed conditions, which the API reads as one row.
export async function up(knex: Knex): Promise<void> {
  // Trades arrive in time order, so a BRIN index on `at` serves the hourly range scans for a few pages of
  // index and almost no cost on the ingest path (a btree would add a write per trade).
  await knex.raw('CREATE INDEX trades_at_brin ON trades USING brin (at)');

  await knex.schema.createTable('market_hourly', (t) => {
    t.timestamp('hour', { useTz: true }).primary();
    t.integer('launches').notNullable();
    t.integer('graduations').notNullable();
    t.integer('trades').notNullable();
    t.bigInteger('volume_lamports').notNullable();
    t.integer('unique_buyers').notNullable();
    t.bigInteger('vsol_inflow_lamports').notNullable();
    t.timestamp('rolled_at', { useTz: true }).notNullable();
  });

  await knex.schema.createTable('market_conditions', (t) => {
    // One row: the latest computation. History lives in market_hourly.
    t.smallint('id').primary();
    t.timestamp('computed_at', { useTz: true }).notNullable();
    t.text('state').notNullable(); // ready | warming
    t.integer('history_hours').notNullable();
    t.jsonb('snapshot');
  });
}

export async function down(): Promise<void> {
  throw new Error('forward-only migrations');
}
