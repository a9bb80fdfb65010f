import type { Knex } from 'knex';

// Forward-only. Closes free issuance through unpaid intents, gives back quota the service's own failures took, and
// keeps the rate-limit counters of unauthenticated POSTs where every API process shares them.
export async function up(knex: Knex): Promise<void> {
  // The memo of the payment intent a key was minted for, until a paid plan is first granted to the key; while set the
  // key authenticates nothing (401 key_not_active). Not a foreign key: the key row is written before its intent, in
  // one transaction.
  await knex.schema.alterTable('api_keys', (t) => {
    t.text('awaiting_payment_of');
  });
  // Keys minted by /api/upgrade that never received a grant were never paid for: they stop working now.
  await knex.raw(`UPDATE api_keys k SET awaiting_payment_of = (
      SELECT i.memo FROM payment_intents i WHERE i.key_id = k.id AND i.key_minted ORDER BY i.created_at LIMIT 1)
    WHERE k.source = 'upgrade'
      AND NOT EXISTS (SELECT 1 FROM api_key_plan_grants g WHERE g.key_id = k.id)
      AND EXISTS (SELECT 1 FROM payment_intents i WHERE i.key_id = k.id AND i.key_minted)`);

  // Calls given back because the service answered them with a 5xx (kept apart from `used`, which they leave).
  await knex.schema.alterTable('api_key_daily_usage', (t) => {
    t.integer('refunded').notNullable().defaultTo(0);
  });

  // Fixed-window counters of rate-limiter-flexible's RateLimiterPostgres (its own column names and types): one row
  // per `<limit>:<client>` or `<limit>:global`, `expire` in unix milliseconds.
  await knex.raw(`CREATE TABLE api_public_rate_limits (
    key varchar(255) PRIMARY KEY,
    points integer NOT NULL DEFAULT 0,
    expire bigint)`);
  // The limiter's periodic sweep deletes rows by expiry.
  await knex.raw('CREATE INDEX api_public_rate_limits_expire ON api_public_rate_limits (expire)');
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
