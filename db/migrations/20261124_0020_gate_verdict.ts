import type { Knex } from 'knex';

// Forward-only. Issue 21: the hourly gate-validation runs of post_grad_survival_prob and the pre-registered
// verdict. Both are evidence published as it was computed, so neither is ever changed or removed: a run stores
// the fires it read (and their SHA-256) so that anyone can recompute its decision from the row alone; a verdict
// is one row per pre-registration, written once when it locks.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE TABLE gate_validation_runs (
    id bigserial PRIMARY KEY,
    gate text NOT NULL,
    window_end timestamptz NOT NULL,
    run_at timestamptz NOT NULL,
    window_start timestamptz,
    decision text NOT NULL CHECK (decision IN ('warming', 'fails', 'hold', 'validates')),
    hold_target_n int,
    previous_run_id bigint REFERENCES gate_validation_runs (id),
    result jsonb NOT NULL,
    inputs jsonb NOT NULL,
    inputs_sha256 text NOT NULL CHECK (inputs_sha256 ~ '^[0-9a-f]{64}$'),
    UNIQUE (gate, window_end))`);
  await knex.raw('CREATE INDEX gate_validation_runs_latest ON gate_validation_runs (gate, window_end DESC)');

  await knex.raw(`CREATE TABLE verdicts (
    preregistration_id text PRIMARY KEY,
    preregistration_sha256 text NOT NULL CHECK (preregistration_sha256 ~ '^[0-9a-f]{64}$'),
    branch text NOT NULL CHECK (branch IN ('confirmed', 'ordered_but_weak', 'not_separated', 'insufficient_data')),
    verdict text NOT NULL CHECK (verdict IN ('supported', 'not_supported', 'inconclusive')),
    window_start timestamptz NOT NULL,
    window_end timestamptz NOT NULL,
    evaluation jsonb NOT NULL,
    evaluation_canonical text NOT NULL,
    evaluation_sha256 text NOT NULL CHECK (evaluation_sha256 ~ '^[0-9a-f]{64}$'),
    locked_at timestamptz NOT NULL)`);

  // The evaluator's latest look before the lock (what is missing), replaced every hour; not evidence.
  await knex.raw(`CREATE TABLE verdict_status (
    preregistration_id text PRIMARY KEY,
    evaluated_at timestamptz NOT NULL,
    status jsonb NOT NULL)`);

  await knex.raw(`CREATE FUNCTION refuse_evidence_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION '% of % refused: published evidence is never changed', lower(TG_OP), TG_TABLE_NAME USING ERRCODE = 'EV001';
    END $$`);
  for (const table of ['gate_validation_runs', 'verdicts']) {
    await knex.raw(`CREATE TRIGGER ${table}_immutable BEFORE UPDATE OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION refuse_evidence_change()`);
    await knex.raw(`CREATE TRIGGER ${table}_no_truncate BEFORE TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION refuse_evidence_change()`);
  }
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
