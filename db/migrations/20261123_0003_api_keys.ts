import type { Knex } from 'knex';

// Forward-only: never edit a migration once it has landed; add a new one.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('api_keys', (t) => {
    t.bigIncrements('id');
    // The visible part of the key (`lp_live_<10 base58>`): shown in place of the key and used to find its row.
    t.text('key_prefix').notNullable().unique();
    // SHA-256 of the whole key. Keys carry 256 random bits, so a fast hash is enough; the plaintext is never stored.
    t.binary('key_hash').notNullable();
    // The paid (or granted) plan; `free` means none. The effective tier also counts holder-token holdings.
    t.text('tier').notNullable().defaultTo('free');
    t.text('plan');
    t.integer('custom_daily_quota');
    // Null with a paid tier: granted without an end (enterprise contracts, admin grants).
    t.timestamp('plan_expires_at', { useTz: true });
    t.text('wallet');
    t.timestamp('wallet_linked_at', { useTz: true });
    // Holder-token balance (UI units) credited to the key from the linked wallet, and when it was read.
    t.decimal('holder_balance', 30, 9);
    t.timestamp('holder_checked_at', { useTz: true });
    t.text('source').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('revoked_at', { useTz: true });
    t.index(['wallet']);
  });
  await knex.raw(`ALTER TABLE api_keys
    ADD CONSTRAINT api_keys_tier CHECK (tier IN ('free', 'builder', 'pro', 'enterprise')),
    ADD CONSTRAINT api_keys_plan CHECK (plan IS NULL OR plan IN ('monthly', 'yearly')),
    ADD CONSTRAINT api_keys_source CHECK (source IN ('upgrade', 'wallet_signup', 'admin')),
    ADD CONSTRAINT api_keys_custom_quota CHECK (custom_daily_quota IS NULL OR custom_daily_quota >= 0),
    ADD CONSTRAINT api_keys_enterprise_quota CHECK (tier <> 'enterprise' OR custom_daily_quota IS NOT NULL),
    ADD CONSTRAINT api_keys_hash_len CHECK (octet_length(key_hash) = 32)`);
  // Renewal reminders and expiry sweeps look for plans ending soon.
  await knex.raw('CREATE INDEX api_keys_plan_expiry ON api_keys (plan_expires_at) WHERE plan_expires_at IS NOT NULL AND revoked_at IS NULL');

  // One row per plan activation or extension, keyed by the caller's dedupe id (e.g. `payment:<memo>`), so a
  // retried activation never extends a plan twice.
  await knex.schema.createTable('api_key_plan_grants', (t) => {
    t.text('grant_id').primary();
    t.bigInteger('key_id').notNullable().references('api_keys.id');
    t.text('tier').notNullable();
    t.text('plan');
    t.integer('days').notNullable();
    t.timestamp('expires_before', { useTz: true });
    t.timestamp('expires_after', { useTz: true });
    t.timestamp('granted_at', { useTz: true }).notNullable();
    t.index(['key_id']);
  });

  // Calls served per key per UTC day. One row is updated atomically by every API process, so the count is exact.
  await knex.schema.createTable('api_key_daily_usage', (t) => {
    t.bigInteger('key_id').notNullable().references('api_keys.id');
    t.date('day').notNullable();
    t.integer('used').notNullable().defaultTo(0);
    // Calls that arrived with the quota used up (not counted in `used`; refused with 429 outside the beta window).
    t.integer('over_quota').notNullable().defaultTo(0);
    // Calls granted by the latest counting statement: lets that statement report its grant in RETURNING.
    t.integer('last_granted').notNullable().defaultTo(0);
    t.primary(['key_id', 'day']);
  });
  // How many of `n` requested calls fit under `lim` when `used` are counted already (never negative).
  await knex.raw(`CREATE FUNCTION api_quota_grant(used integer, n integer, lim integer) RETURNS integer
    LANGUAGE sql IMMUTABLE AS 'SELECT LEAST(n, GREATEST(lim - used, 0))'`);

  // Holder-token wallet signups: the projection the signup workflow writes and the poll reads.
  await knex.schema.createTable('wallet_links', (t) => {
    t.text('link_id').primary();
    t.text('wallet').notNullable();
    t.text('access').notNullable();
    t.text('message').notNullable();
    t.text('status').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.decimal('balance', 30, 9);
    t.decimal('threshold', 30, 9).notNullable();
    t.bigInteger('key_id').references('api_keys.id');
    t.timestamp('fulfilled_at', { useTz: true });
    // The minted key, encrypted (AES-256-GCM) and only until `key_visible_until`; wiped afterwards.
    t.binary('key_ciphertext');
    t.timestamp('key_visible_until', { useTz: true });
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['wallet']);
  });
  await knex.raw(`ALTER TABLE wallet_links
    ADD CONSTRAINT wallet_links_access CHECK (access IN ('signals', 'api')),
    ADD CONSTRAINT wallet_links_status CHECK (status IN ('pending', 'fulfilled', 'ineligible', 'expired'))`);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
