import type { Knex } from 'knex';

// Forward-only. Plan payments: intents (the projection the payment workflow keeps current), every treasury
// transaction the scanner has read, renewal reminders, and holder-token burns owed and executed.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('payment_intents', (t) => {
    t.text('memo').primary();
    t.text('tier').notNullable();
    t.text('plan').notNullable();
    t.bigInteger('amount_lamports').notNullable();
    t.text('treasury').notNullable();
    t.bigInteger('key_id').notNullable().references('api_keys.id');
    t.text('key_prefix').notNullable();
    // True when the key was minted for this intent (its plaintext was shown once, in the creation response).
    t.boolean('key_minted').notNullable();
    t.text('email');
    t.bigInteger('telegram_id');
    t.text('status').notNullable().defaultTo('pending');
    // Everything received under the memo, what counted toward the price, and what counted beyond it.
    t.bigInteger('received_lamports').notNullable().defaultTo(0);
    t.bigInteger('counted_lamports').notNullable().defaultTo(0);
    t.bigInteger('excess_lamports').notNullable().defaultTo(0);
    t.text('paid_signature');
    // {counted, after_completion, late}: every transfer under the memo and how it was treated.
    t.jsonb('signatures').notNullable().defaultTo(knex.raw(`'{"counted":[],"after_completion":[],"late":[]}'::jsonb`));
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('paid_at', { useTz: true });
    t.timestamp('activated_at', { useTz: true });
    t.timestamp('plan_expires_at', { useTz: true });
    // How the activated period ended: reverted to free, or renewed by a later intent.
    t.text('plan_outcome');
    t.timestamp('plan_outcome_at', { useTz: true });
    t.timestamp('checked_at', { useTz: true });
    // Outbox: the workflow is started after the row is durable; a sweep starts any a crash left behind.
    t.timestamp('workflow_started_at', { useTz: true });
    t.index(['key_id']);
  });
  await knex.raw(`ALTER TABLE payment_intents
    ADD CONSTRAINT payment_intents_tier CHECK (tier IN ('builder', 'pro')),
    ADD CONSTRAINT payment_intents_plan CHECK (plan IN ('monthly', 'yearly')),
    ADD CONSTRAINT payment_intents_status CHECK (status IN ('pending', 'underpaid', 'paid', 'expired', 'activated')),
    ADD CONSTRAINT payment_intents_amount CHECK (amount_lamports > 0),
    ADD CONSTRAINT payment_intents_outcome CHECK (plan_outcome IS NULL OR plan_outcome IN ('reverted', 'renewed'))`);
  await knex.raw('CREATE INDEX payment_intents_workflow_pending ON payment_intents (created_at) WHERE workflow_started_at IS NULL');

  await knex.schema.createTable('treasury_transactions', (t) => {
    t.text('signature').primary();
    t.text('treasury').notNullable();
    t.bigInteger('slot').notNullable();
    t.timestamp('block_time', { useTz: true });
    t.timestamp('seen_at', { useTz: true }).notNullable();
    t.boolean('failed').notNullable();
    t.specificType('memos', 'text[]').notNullable();
    // The one intent memo the transaction names (null: none, or ambiguous).
    t.text('intent_memo');
    t.bigInteger('lamports').notNullable();
    t.text('payer');
    t.index(['treasury', 'slot']);
  });
  await knex.raw('CREATE INDEX treasury_transactions_memo ON treasury_transactions (intent_memo) WHERE intent_memo IS NOT NULL');

  await knex.schema.createTable('plan_reminders', (t) => {
    // One reminder per activated intent: a renewal is a new intent with a reminder of its own.
    t.text('intent_memo').primary().references('payment_intents.memo');
    t.bigInteger('key_id').notNullable().references('api_keys.id');
    t.timestamp('plan_expires_at', { useTz: true }).notNullable();
    t.text('channel').notNullable();
    t.text('recipient');
    t.text('status').notNullable();
    t.text('message_id');
    t.text('error');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });
  await knex.raw(`ALTER TABLE plan_reminders
    ADD CONSTRAINT plan_reminders_channel CHECK (channel IN ('email', 'telegram', 'none')),
    ADD CONSTRAINT plan_reminders_status CHECK (status IN ('sending', 'sent', 'failed', 'queued_for_bot', 'no_contact'))`);

  await knex.schema.createTable('executed_burns', (t) => {
    t.bigIncrements('id');
    t.text('kind').notNullable();
    t.text('signature').notNullable().unique();
    t.bigInteger('slot');
    t.text('token_mint').notNullable();
    t.decimal('amount_tokens', 38, 9).notNullable();
    t.timestamp('executed_at', { useTz: true }).notNullable();
    t.timestamp('recorded_at', { useTz: true }).notNullable();
    t.index(['executed_at']);
  });

  // Burns owed: pay-with-token receipts (tokens known) and weekly revenue commitments (SOL set aside; the token
  // amount is known only once the buy-back executes). Settled by an executed burn.
  await knex.schema.createTable('burn_obligations', (t) => {
    t.bigIncrements('id');
    t.text('kind').notNullable();
    t.decimal('amount_tokens', 38, 9);
    t.bigInteger('amount_lamports');
    t.text('source_signature');
    t.date('period_start');
    t.timestamp('due_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.bigInteger('burn_id').references('executed_burns.id');
  });
  await knex.raw(`ALTER TABLE burn_obligations
    ADD CONSTRAINT burn_obligations_kind CHECK (kind IN ('payment_receipt', 'revenue_commitment')),
    ADD CONSTRAINT burn_obligations_shape CHECK (
      (kind = 'payment_receipt' AND amount_tokens > 0 AND source_signature IS NOT NULL AND period_start IS NULL)
      OR (kind = 'revenue_commitment' AND amount_lamports > 0 AND period_start IS NOT NULL AND source_signature IS NULL))`);
  // One open commitment per week accumulates; once settled, a later payment in that week opens a new one.
  await knex.raw(`CREATE UNIQUE INDEX burn_obligations_open_week ON burn_obligations (period_start) WHERE kind = 'revenue_commitment' AND burn_id IS NULL`);
  await knex.raw('CREATE UNIQUE INDEX burn_obligations_receipt ON burn_obligations (source_signature) WHERE source_signature IS NOT NULL');
  await knex.raw('CREATE INDEX burn_obligations_pending ON burn_obligations (created_at) WHERE burn_id IS NULL');

  // Which activated intent put how much into which commitment: pending burns trace back to payments.
  await knex.schema.createTable('burn_contributions', (t) => {
    t.text('intent_memo').primary().references('payment_intents.memo');
    t.bigInteger('obligation_id').notNullable().references('burn_obligations.id');
    t.bigInteger('lamports').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['obligation_id']);
  });
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
