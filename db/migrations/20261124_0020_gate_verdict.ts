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

  // id: the ledger's row id (track `verdict`, one leaf per locked verdict, committed in the hour of locked_at).
  await knex.raw(`CREATE TABLE verdicts (
    id bigserial UNIQUE,
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
  // The audit ledger's seal on the verdict track (migration 0012's trigger): no verdict lands in a committed hour.
  await knex.raw(`INSERT INTO ledger_seals (track) VALUES ('verdict')`);
  await knex.raw(`CREATE TRIGGER verdicts_ledger_seal BEFORE INSERT OR UPDATE OR DELETE ON verdicts
    FOR EACH ROW EXECUTE FUNCTION ledger_refuse_sealed_row('verdict', 'locked_at', 'immutable')`);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
