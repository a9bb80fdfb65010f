import type { Knex } from 'knex';

// Forward-only. Holder wallets linked from the messaging bot (issue 16): which chat asked for which holder signup
// (`wallet_links`, the API's signed-message flow), so the signature a chat sends back settles that chat's own link
// and the chat is linked to the key the signup mints. And the events of watched mints already told to their watchers
// (at most once per watch and event). And the updates a Telegram webhook delivered, so a redelivered update (its
// answer was lost) runs its command once: recorded in the transaction that runs it.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE TABLE bot_wallet_links (
    link_id text PRIMARY KEY,
    chat_id bigint NOT NULL REFERENCES bot_chats (chat_id),
    wallet text NOT NULL,
    created_at timestamptz NOT NULL)`);
  await knex.raw('CREATE INDEX bot_wallet_links_chat ON bot_wallet_links (chat_id, created_at DESC)');

  await knex.raw(`CREATE TABLE alert_watch_events (
    owner_key_id bigint NOT NULL REFERENCES api_keys (id),
    mint text NOT NULL,
    event text NOT NULL,
    fired_at timestamptz NOT NULL,
    PRIMARY KEY (owner_key_id, mint, event))`);

  await knex.raw(`CREATE TABLE bot_webhook_updates (
    bot_id bigint NOT NULL,
    update_id bigint NOT NULL,
    received_at timestamptz NOT NULL,
    PRIMARY KEY (bot_id, update_id))`);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
