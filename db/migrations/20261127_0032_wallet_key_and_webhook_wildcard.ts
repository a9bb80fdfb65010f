import type { Knex } from 'knex';

// Forward-only. Two rules of access integrity.
//
// A holder wallet's balance credits one live key at a time: linking it to a key (holder signup or
// POST /api/v1/wallet/link) takes it off any other key. Before this, one balance could back any number of keys.
// Existing duplicates keep the wallet on the key that linked it last (ties: the newer key) and drop it, with its
// credited balance, from the others; the partial unique index then holds the rule for every later write.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`UPDATE api_keys k SET wallet = NULL, wallet_linked_at = NULL, holder_balance = NULL, holder_checked_at = NULL
    FROM (
      SELECT id, row_number() OVER (PARTITION BY wallet ORDER BY wallet_linked_at DESC NULLS LAST, id DESC) AS rank
      FROM api_keys WHERE wallet IS NOT NULL AND revoked_at IS NULL
    ) d
    WHERE k.id = d.id AND d.rank > 1`);
  await knex.raw('CREATE UNIQUE INDEX api_keys_one_live_key_per_wallet ON api_keys (wallet) WHERE wallet IS NOT NULL AND revoked_at IS NULL');

  // Webhook subscriptions to `*` were stored as the kinds that existed when they were made, so kinds added later
  // never reached them. They now store `*` itself, matched at delivery.
  await knex.raw(`UPDATE webhook_subscriptions SET event_kinds = ARRAY['*']::text[] WHERE btrim(events) = '*'`);
}

export async function down(): Promise<void> {
  throw new Error('forward-only migrations');
}
