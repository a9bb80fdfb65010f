import type { Knex } from 'knex';

// Forward-only. Alerts (domain/alerts/): the rules (owned by an API key, or the service's audited house rule), one
// durable row per fire (a rule fires once per mint), the bot's chats linked to keys, watchlists, the bot's durable
// send queue, the bot's own cursor over composite signals in the event outbox, and its long-polling offset.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE TABLE alert_rules (
    id bigserial PRIMARY KEY,
    owner_key_id bigint REFERENCES api_keys (id),
    kind text NOT NULL CHECK (kind IN ('grad_prob', 'vsol_burst', 'runner_dev', 'smart_in', 'runner_5x', 'runner_10x', 'wallet')),
    threshold double precision NOT NULL,
    wallet text,
    version text NOT NULL,
    created_at timestamptz NOT NULL,
    removed_at timestamptz,
    CHECK ((kind = 'wallet') = (wallet IS NOT NULL)))`);
  await knex.raw('CREATE INDEX alert_rules_owner ON alert_rules (owner_key_id) WHERE removed_at IS NULL');
  // The audit reads the one house rule of a kind in force; two at once would make "the active rule" ambiguous.
  await knex.raw('CREATE UNIQUE INDEX alert_rules_house_active ON alert_rules (kind) WHERE owner_key_id IS NULL AND removed_at IS NULL');
  // The evaluator reloads its rule index when this moves (a rule added or removed).
  await knex.raw('CREATE TABLE alert_rules_version (id int PRIMARY KEY CHECK (id = 1), changed_at timestamptz NOT NULL)');

  await knex.raw(`CREATE TABLE alert_fires (
    id bigserial PRIMARY KEY,
    rule_id bigint NOT NULL REFERENCES alert_rules (id),
    owner_key_id bigint,
    kind text NOT NULL,
    mint text NOT NULL,
    fired_at timestamptz NOT NULL,
    premium_sample boolean NOT NULL,
    price_sol double precision NOT NULL,
    grad_prob double precision,
    age_bucket int,
    facts jsonb NOT NULL,
    UNIQUE (rule_id, mint))`);
  await knex.raw('CREATE INDEX alert_fires_rule_time ON alert_fires (rule_id, fired_at DESC)');
  await knex.raw('CREATE INDEX alert_fires_recent ON alert_fires (fired_at)');
  await knex.raw('CREATE INDEX alert_fires_premium ON alert_fires (owner_key_id, fired_at) WHERE premium_sample');

  await knex.raw(`CREATE TABLE bot_chats (
    chat_id bigint PRIMARY KEY,
    owner_key_id bigint REFERENCES api_keys (id),
    linked_at timestamptz,
    blocked_at timestamptz,
    signal_tiers text[] NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL)`);
  await knex.raw('CREATE INDEX bot_chats_owner ON bot_chats (owner_key_id) WHERE owner_key_id IS NOT NULL');

  await knex.raw(`CREATE TABLE alert_watchlist (
    owner_key_id bigint NOT NULL REFERENCES api_keys (id),
    mint text NOT NULL,
    added_at timestamptz NOT NULL,
    PRIMARY KEY (owner_key_id, mint))`);
  await knex.raw('CREATE INDEX alert_watchlist_mint ON alert_watchlist (mint)');

  // The send queue: rows are written in the transaction that makes their cause (a fire, a signal, a reply), sent
  // in id order per chat, and never deleted; dedupe_key makes a retried enqueue a no-op.
  await knex.raw(`CREATE TABLE bot_sends (
    id bigserial PRIMARY KEY,
    chat_id bigint NOT NULL,
    dedupe_key text NOT NULL UNIQUE,
    text text NOT NULL,
    created_at timestamptz NOT NULL,
    state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'refused')),
    attempts int NOT NULL DEFAULT 0,
    sent_at timestamptz,
    message_id bigint,
    error text)`);
  await knex.raw(`CREATE INDEX bot_sends_pending ON bot_sends (id) WHERE state = 'pending'`);

  // Each consumer of the event outbox keeps its own cursor (delivered_at is shared by several consumers).
  await knex.raw('CREATE TABLE alert_outbox_cursors (consumer text PRIMARY KEY, last_id bigint NOT NULL)');
  await knex.raw('CREATE TABLE bot_poll_offsets (bot_id bigint PRIMARY KEY, next_update_id bigint NOT NULL)');
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
