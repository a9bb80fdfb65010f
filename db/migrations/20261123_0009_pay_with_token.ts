import type { Knex } from 'knex';

// Forward-only. Plans paid with the holder token: an intent's currency and exact token price, the token amount each
// treasury transaction brought, and which watched address listed which transaction.
export async function up(knex: Knex): Promise<void> {
  // Raw token amounts are u64 on chain: numeric(20,0) holds every one exactly (bigint stops at 2^63).
  await knex.schema.alterTable('payment_intents', (t) => {
    t.text('pay_with').notNullable().defaultTo('sol');
    // Fixed when the intent is made: the mint, its decimals then, and the price in its raw units.
    t.text('token_mint');
    t.smallint('token_decimals');
    t.decimal('amount_tokens_raw', 20, 0);
    // The token counterparts of received/counted/excess_lamports; zero on SOL intents.
    t.decimal('received_tokens_raw', 20, 0).notNullable().defaultTo(0);
    t.decimal('counted_tokens_raw', 20, 0).notNullable().defaultTo(0);
    t.decimal('excess_tokens_raw', 20, 0).notNullable().defaultTo(0);
  });
  await knex.raw(`ALTER TABLE payment_intents
    ADD CONSTRAINT payment_intents_pay_with CHECK (
      (pay_with = 'sol' AND token_mint IS NULL AND token_decimals IS NULL AND amount_tokens_raw IS NULL)
      OR (pay_with = 'token' AND token_mint IS NOT NULL AND token_decimals BETWEEN 0 AND 255 AND amount_tokens_raw > 0))`);

  await knex.schema.alterTable('treasury_transactions', (t) => {
    // Raw units of `token_mint` (the holder mint when the transaction was read) that reached token accounts the
    // treasury owns; null mint: no holder mint was configured then, nothing was measured.
    t.text('token_mint');
    t.decimal('tokens_raw', 20, 0).notNullable().defaultTo(0);
  });

  // The scan lists several addresses (the treasury wallet and its token accounts) and stops each listing at the
  // newest signature it recorded for that address. A transaction listed under both (the first payment, which
  // creates the token account) must not end the other address's listing early, so listings are kept apart.
  await knex.schema.createTable('treasury_address_signatures', (t) => {
    t.text('address').notNullable();
    t.text('signature').notNullable().references('treasury_transactions.signature');
    t.primary(['address', 'signature']);
  });
  await knex.raw('INSERT INTO treasury_address_signatures (address, signature) SELECT treasury, signature FROM treasury_transactions');
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
