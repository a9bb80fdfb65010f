import type { Knex } from 'knex';

// Forward-only. Paper trading (domain/paper/): one row per (strategy, mint) position, ever, with the enriched mint as
// the API served it at entry; one row per (score, strategy) the entry loop decided, so a score is judged once.
export async function up(knex: Knex): Promise<void> {
  // `position` is the domain's PaperPosition (entry fill, last quote, exit) as plain JSON; the scalar columns copy
  // what the API filters and sorts on. Written only by the paper activities: the entry inserts, the position's
  // workflow updates the last quote and closes it once (WHERE state = 'open').
  await knex.raw(`CREATE TABLE paper_positions (
    id bigserial PRIMARY KEY,
    strategy text NOT NULL,
    threshold double precision NOT NULL,
    mint text NOT NULL,
    workflow_id text NOT NULL UNIQUE,
    prediction_id bigint NOT NULL,
    opened_at timestamptz NOT NULL,
    cost_lamports bigint NOT NULL,
    position jsonb NOT NULL,
    config jsonb NOT NULL,
    entry_snapshot jsonb NOT NULL,
    state text NOT NULL CHECK (state IN ('open', 'closed')),
    closed_at timestamptz,
    exit_reason text CHECK (exit_reason IN ('take_profit', 'stop_loss', 'timeout', 'stale_price')),
    proceeds_lamports bigint,
    pnl_lamports bigint,
    loss_pct double precision,
    last_quote_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    workflow_started_at timestamptz,
    UNIQUE (strategy, mint))`);
  await knex.raw('CREATE INDEX paper_positions_strategy ON paper_positions (strategy, opened_at)');
  await knex.raw('CREATE INDEX paper_positions_losses ON paper_positions (closed_at DESC, id DESC) WHERE pnl_lamports < 0');
  await knex.raw(`CREATE INDEX paper_positions_open ON paper_positions (strategy) WHERE state = 'open'`);
  await knex.raw('CREATE INDEX paper_positions_unstarted ON paper_positions (id) WHERE workflow_started_at IS NULL');

  await knex.raw(`CREATE TABLE paper_entry_decisions (
    prediction_id bigint NOT NULL REFERENCES predictions (id),
    strategy text NOT NULL,
    decision text NOT NULL,
    position_id bigint REFERENCES paper_positions (id),
    decided_at timestamptz NOT NULL,
    PRIMARY KEY (prediction_id, strategy))`);
}

export async function down(): Promise<void> {
  throw new Error('forward-only migration');
}
