import type { Knex } from 'knex';

/** The firehose append lock of migration 0018: alert fires take it like every other append. */
const FIREHOSE_APPEND_LOCK = 7_301_180_001;

// Forward-only. The Enterprise firehose (api/firehose/), two additions:
//
// Connection leases: one row per open firehose connection, in whichever API process holds it, so the caps per key
// and in all hold across processes (db/firehose/firehose-lease-store.ts). A process renews its rows' expiry on a
// timer (one statement for all its connections, no database connection held per socket); a process killed without
// cleanup stops renewing, and its rows stop counting at their expiry.
//
// Alert fires: the alerts area writes an `alert_fire` outbox row per fire (db/alerts/alert-fire-store.ts); a deferred
// trigger appends it to the log at its transaction's commit (so the append lock is held for the commit only, as the
// other writers hold it), tagged with the rule owner's key: only that key's connections are sent it. A fire of a
// rule without an owner (the house rule) is nobody's and is not appended.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE TABLE firehose_leases (
    id bigserial PRIMARY KEY,
    process_id text NOT NULL,
    key_id bigint,
    expires_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL)`);
  await knex.raw('CREATE INDEX firehose_leases_expiry ON firehose_leases (expires_at)');

  await knex.raw('ALTER TABLE firehose_events ADD COLUMN owner_key_id bigint');
  await knex.raw('ALTER TABLE firehose_events DROP CONSTRAINT firehose_events_kind_check');
  await knex.raw(`ALTER TABLE firehose_events ADD CONSTRAINT firehose_events_kind_check CHECK (kind IN ('score', 'live', 'signal', 'alert'))`);
  // A malformed outbox payload is skipped, never a failed commit of the alerts area's transaction.
  await knex.raw(`CREATE FUNCTION firehose_on_alert_fire() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      owner bigint;
      p jsonb := NEW.payload;
    BEGIN
      BEGIN
        owner := (p ->> 'owner_key_id')::bigint;
      EXCEPTION WHEN others THEN
        RETURN NULL;
      END;
      IF owner IS NULL THEN RETURN NULL; END IF;
      PERFORM pg_advisory_xact_lock(${FIREHOSE_APPEND_LOCK});
      INSERT INTO firehose_events (seq, kind, payload, at, owner_key_id)
      VALUES (nextval('firehose_events_seq'), 'alert', jsonb_build_object('fire_id', p -> 'fire_id', 'rule_id', p -> 'rule_id',
        'kind', p -> 'kind', 'mint', p -> 'mint', 'fired_at', p -> 'fired_at', 'facts', coalesce(p -> 'facts', '{}')), clock_timestamp(), owner);
      PERFORM pg_notify('firehose', '');
      RETURN NULL;
    END $$`);
  await knex.raw(`CREATE CONSTRAINT TRIGGER firehose_alert_fires AFTER INSERT ON event_outbox DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW WHEN (NEW.kind = 'alert_fire') EXECUTE FUNCTION firehose_on_alert_fire()`);
}

export async function down(): Promise<void> {
  throw new Error('forward-only migration');
}
