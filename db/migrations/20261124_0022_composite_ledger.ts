import type { Knex } from 'knex';

// Forward-only. The composite track of the audit ledger (db/ledger/composite-row-source.ts): its leaves are the
// tiered first crosses, placed by crossed_at. The seal trigger of migration 0012 refuses a cross inserted into a
// sealed hour and moving or deleting a sealed row; the second trigger keeps a sealed hour's leaves exactly as
// counted and committed: no cross there gets its tier after the seal, and no leaf field of a sealed row changes
// (the outcome columns, written at resolution 24 h later, stay writable). A cross refused its tier is marked
// `tier_skipped_at` and never published: a signal the audit trail could not hold is not a signal.
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE composite_predictions ADD COLUMN tier_skipped_at timestamptz');
  await knex.raw(`CREATE TRIGGER composite_predictions_ledger_seal BEFORE INSERT OR UPDATE OR DELETE ON composite_predictions
    FOR EACH ROW EXECUTE FUNCTION ledger_refuse_sealed_row('composite', 'crossed_at')`);
  await knex.raw(`CREATE FUNCTION composite_refuse_sealed_leaf_change() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      v_sealed timestamptz;
    BEGIN
      PERFORM pg_advisory_xact_lock_shared(hashtext('ledger_seal:composite'));
      SELECT s.sealed_until INTO v_sealed FROM ledger_seals s WHERE s.track = 'composite';
      IF v_sealed IS NOT NULL AND OLD.crossed_at < v_sealed
        AND (NEW.mint, NEW.crossed_at, NEW.tier, NEW.composite_score, NEW.threshold_at_cross, NEW.smart_money_in,
             NEW.max_mult_at_cross, NEW.age_s, NEW.mc_at_cross_usd)
          IS DISTINCT FROM (OLD.mint, OLD.crossed_at, OLD.tier, OLD.composite_score, OLD.threshold_at_cross, OLD.smart_money_in,
             OLD.max_mult_at_cross, OLD.age_s, OLD.mc_at_cross_usd) THEN
        RAISE EXCEPTION 'ledger: composite is sealed before % (committed hours); a leaf change of the cross at % refused', v_sealed, OLD.crossed_at
          USING ERRCODE = 'LG001', TABLE = TG_TABLE_NAME;
      END IF;
      RETURN NEW;
    END $$`);
  await knex.raw(`CREATE TRIGGER composite_predictions_sealed_leaf BEFORE UPDATE ON composite_predictions
    FOR EACH ROW EXECUTE FUNCTION composite_refuse_sealed_leaf_change()`);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
