import type { Knex } from 'knex';

// Forward-only. The composite signal (domain/signals/): the rolling threshold's persisted sketch (one row per
// writer, replaced under an optimistic generation check), one immutable row per first cross, the delivered
// signals with their commit-ordered cursor, the crosses a missing or stale SOL price withheld, and the domain
// event outbox the alert and webhook areas deliver from.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE TABLE composite_threshold_state (
    writer_id text PRIMARY KEY,
    generation bigint NOT NULL,
    state jsonb NOT NULL,
    saved_at timestamptz NOT NULL)`);

  // Cross facts are written once (the insert); tier, tiered_at and the signal are set once when the tier is known;
  // the outcome columns once at resolution. mint UNIQUE is the first-cross-only rule.
  await knex.raw(`CREATE TABLE composite_predictions (
    id bigserial PRIMARY KEY,
    mint text NOT NULL UNIQUE,
    crossed_at timestamptz NOT NULL,
    mint_created_at timestamptz NOT NULL,
    age_s double precision NOT NULL,
    composite_version int NOT NULL,
    cross_rules_version int NOT NULL,
    composite_score double precision NOT NULL,
    smart_money_in int NOT NULL,
    max_mult_at_cross double precision NOT NULL,
    freshness double precision NOT NULL,
    threshold_at_cross double precision NOT NULL,
    threshold_quantile double precision NOT NULL,
    threshold_kind text NOT NULL,
    threshold_samples bigint NOT NULL,
    price_at_cross_sol double precision NOT NULL,
    sol_usd_at_cross double precision NOT NULL,
    mc_at_cross_usd double precision NOT NULL,
    gp_30 double precision,
    features jsonb NOT NULL,
    tier_rules_version text NOT NULL,
    tier_deadline_at timestamptz NOT NULL,
    gp_60 double precision,
    tier text CHECK (tier IN ('ACT', 'WATCH', 'SCOUT')),
    tiered_at timestamptz,
    leaf_version int NOT NULL,
    resolves_at timestamptz NOT NULL,
    label_version text,
    did_graduate boolean,
    peak_mult_24h double precision,
    did_sustain_30m boolean,
    resolved_at timestamptz)`);
  await knex.raw('CREATE INDEX composite_predictions_log ON composite_predictions (crossed_at DESC, id DESC) WHERE tier IS NOT NULL');
  await knex.raw('CREATE INDEX composite_predictions_resolved_log ON composite_predictions (crossed_at DESC, id DESC) WHERE resolved_at IS NOT NULL');
  await knex.raw('CREATE INDEX composite_predictions_pending_tier ON composite_predictions (tier_deadline_at) WHERE tier IS NULL');
  await knex.raw('CREATE INDEX composite_predictions_unresolved ON composite_predictions (resolves_at) WHERE resolved_at IS NULL AND tier IS NOT NULL');

  // cursor: microsecond deliverability time made strictly increasing under one advisory lock (domain/signals/cursor.ts).
  await knex.raw(`CREATE TABLE signals (
    id bigserial PRIMARY KEY,
    prediction_id bigint NOT NULL UNIQUE REFERENCES composite_predictions (id),
    cursor bigint NOT NULL UNIQUE,
    tier text NOT NULL,
    delivered_at timestamptz NOT NULL,
    payload jsonb NOT NULL)`);
  await knex.raw('CREATE INDEX signals_tier_cursor ON signals (tier, cursor)');
  await knex.raw('CREATE INDEX signals_delivered_at ON signals (delivered_at)');

  // One row per (mint, reason): a score that reached the threshold while the SOL price was unknown or stale.
  await knex.raw(`CREATE TABLE composite_withheld (
    mint text NOT NULL,
    reason text NOT NULL,
    at timestamptz NOT NULL,
    PRIMARY KEY (mint, reason))`);
  await knex.raw('CREATE INDEX composite_withheld_at ON composite_withheld (at)');

  // The domain event outbox: written in the transaction that makes the fact, delivered by whoever consumes `kind`.
  await knex.raw(`CREATE TABLE event_outbox (
    id bigserial PRIMARY KEY,
    kind text NOT NULL,
    event_key text NOT NULL UNIQUE,
    payload jsonb NOT NULL,
    created_at timestamptz NOT NULL,
    delivered_at timestamptz)`);
  await knex.raw('CREATE INDEX event_outbox_pending ON event_outbox (id) WHERE delivered_at IS NULL');
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
