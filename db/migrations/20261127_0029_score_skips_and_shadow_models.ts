import type { Knex } from 'knex';

// Forward-only. Three things the published accuracy needs so it cannot flatter itself:
// - score_skips: a scoring moment that produced no prediction, with the reason. `graduated`: the curve had
//   completed at or before the moment (a "prediction" then would be a lookup). `model_warming`: the model was fitted
//   on an empty or warming corpus (or while seeded history was still being written), so its number is a prior, not a
//   score. A warming skip keeps the features observed then (and, once resolved, the peak multiple after it), so a
//   deployment without history still grows the corpus its first real model is fitted from.
// - shadow_predictions: challenger model versions scoring every mint beside the served champion, never served,
//   committed to the audit ledger (track `shadow`) like the served scores, so no one can pick a winner afterwards.
// - model_promotions: every decision of the pre-registered promotion rule (track `promotion`), immutable.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE TABLE score_skips (
    id bigserial PRIMARY KEY,
    mint text NOT NULL,
    age_bucket smallint NOT NULL,
    as_of timestamptz NOT NULL,
    recorded_at timestamptz NOT NULL,
    reason text NOT NULL CHECK (reason IN ('graduated', 'model_warming')),
    graduated_at timestamptz,
    model_version text,
    features jsonb,
    rug_features jsonb,
    price_sol double precision,
    peak_mult_24h double precision,
    UNIQUE (mint, age_bucket))`);
  await knex.raw("CREATE INDEX score_skips_warming_as_of ON score_skips (age_bucket, as_of DESC) WHERE reason = 'model_warming'");

  await knex.raw(`CREATE TABLE shadow_predictions (
    id bigserial PRIMARY KEY,
    mint text NOT NULL,
    age_bucket smallint NOT NULL,
    model_name text NOT NULL,
    model_version text NOT NULL,
    as_of timestamptz NOT NULL,
    predicted_at timestamptz NOT NULL,
    grad_prob double precision NOT NULL CHECK (grad_prob > 0 AND grad_prob < 1),
    UNIQUE (mint, age_bucket, model_name))`);
  await knex.raw('CREATE INDEX shadow_predictions_predicted_at ON shadow_predictions (predicted_at)');
  await knex.raw('CREATE INDEX shadow_predictions_model ON shadow_predictions (model_name, predicted_at)');

  await knex.raw(`CREATE TABLE model_promotions (
    id bigserial PRIMARY KEY,
    window_end timestamptz NOT NULL,
    decided_at timestamptz NOT NULL,
    rule_id text NOT NULL,
    rule_sha256 text NOT NULL CHECK (rule_sha256 ~ '^[0-9a-f]{64}$'),
    champion text NOT NULL,
    challenger text NOT NULL,
    decision text NOT NULL CHECK (decision IN ('promote', 'keep', 'insufficient_data')),
    n integer NOT NULL,
    positives integer NOT NULL,
    mean_diff double precision,
    upper_bound double precision,
    evidence jsonb NOT NULL,
    evidence_sha256 text NOT NULL CHECK (evidence_sha256 ~ '^[0-9a-f]{64}$'),
    UNIQUE (window_end, challenger))`);
  await knex.raw('CREATE INDEX model_promotions_decided_at ON model_promotions (decided_at)');

  // The audit ledger's seal on both new tracks (migration 0012's trigger): nothing lands in a committed hour, and
  // neither a shadow score nor a decision is ever changed.
  await knex.raw(`INSERT INTO ledger_seals (track) VALUES ('shadow'), ('promotion')`);
  await knex.raw(`CREATE TRIGGER shadow_predictions_ledger_seal BEFORE INSERT OR UPDATE OR DELETE ON shadow_predictions
    FOR EACH ROW EXECUTE FUNCTION ledger_refuse_sealed_row('shadow', 'predicted_at', 'immutable')`);
  await knex.raw(`CREATE TRIGGER model_promotions_ledger_seal BEFORE INSERT OR UPDATE OR DELETE ON model_promotions
    FOR EACH ROW EXECUTE FUNCTION ledger_refuse_sealed_row('promotion', 'decided_at', 'immutable')`);
}

export async function down(): Promise<void> {
  throw new Error('forward-only migration');
}
