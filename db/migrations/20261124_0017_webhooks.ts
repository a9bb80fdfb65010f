import type { Knex } from 'knex';

// Forward-only. Signed webhooks: subscriptions (secret encrypted at rest), the events fanned out from the domain
// event outbox with this consumer's own cursor, every delivery attempt, and what the owner was told.
export async function up(knex: Knex): Promise<void> {
  // event_kinds: `events` expanded (domain/webhooks/event-kinds.ts), so the fan-out asks `@> ARRAY[kind]` of an index.
  await knex.raw(`CREATE TABLE webhook_subscriptions (
    id bigserial PRIMARY KEY,
    key_id bigint NOT NULL REFERENCES api_keys (id),
    url text NOT NULL,
    events text NOT NULL,
    event_kinds text[] NOT NULL,
    secret_sealed text NOT NULL,
    active boolean NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL,
    deactivated_at timestamptz,
    deactivated_reason text CHECK (deactivated_reason IN ('deleted', 'gone', 'failing')),
    last_delivery_at timestamptz,
    last_success_at timestamptz,
    failing_since timestamptz,
    consecutive_failures int NOT NULL DEFAULT 0)`);
  await knex.raw('CREATE INDEX webhook_subscriptions_key ON webhook_subscriptions (key_id, id DESC)');
  await knex.raw('CREATE INDEX webhook_subscriptions_kinds ON webhook_subscriptions USING gin (event_kinds) WHERE active');

  // One row per outbox event this area has fanned out; the body is serialized once so every attempt signs the same bytes.
  await knex.raw(`CREATE TABLE webhook_events (
    outbox_id bigint PRIMARY KEY,
    event_id text NOT NULL UNIQUE,
    kind text NOT NULL,
    owner_key_id bigint,
    body text NOT NULL,
    created_at timestamptz NOT NULL,
    dispatched_at timestamptz,
    deliveries int NOT NULL DEFAULT 0)`);
  // This consumer's low-water mark over event_outbox.id (others keep their own; delivered_at is not ours).
  await knex.raw(`CREATE TABLE webhook_outbox_cursor (
    consumer text PRIMARY KEY,
    last_outbox_id bigint NOT NULL,
    updated_at timestamptz NOT NULL)`);

  await knex.raw(`CREATE TABLE webhook_deliveries (
    id bigserial PRIMARY KEY,
    webhook_id bigint NOT NULL REFERENCES webhook_subscriptions (id),
    key_id bigint NOT NULL,
    outbox_id bigint NOT NULL,
    event_id text NOT NULL,
    event_kind text NOT NULL,
    attempt int NOT NULL,
    state text NOT NULL CHECK (state IN ('succeeded', 'failed', 'retrying', 'gave_up')),
    status_code int,
    error text,
    duration_ms int,
    attempted_at timestamptz NOT NULL,
    delivered_at timestamptz,
    next_retry_at timestamptz,
    UNIQUE (webhook_id, outbox_id, attempt))`);
  await knex.raw('CREATE INDEX webhook_deliveries_key ON webhook_deliveries (key_id, id DESC)');

  // What the owner was told when a subscription was deactivated for failing (through the bot when the key has a chat).
  await knex.raw(`CREATE TABLE webhook_notices (
    id bigserial PRIMARY KEY,
    webhook_id bigint NOT NULL UNIQUE REFERENCES webhook_subscriptions (id),
    key_id bigint NOT NULL,
    channel text NOT NULL CHECK (channel IN ('telegram', 'none')),
    status text NOT NULL CHECK (status IN ('sent', 'failed', 'no_channel')),
    detail text,
    created_at timestamptz NOT NULL)`);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
