import type { Knex } from 'knex';

/** Transaction-level advisory lock every firehose append takes (see below); distinct from the signal cursor's. */
const FIREHOSE_APPEND_LOCK = 7_301_180_001;

// Forward-only. The Enterprise firehose's durable log (api/firehose/): every score change appended at its source by
// triggers, so every writer (any worker, any script) feeds it and every API process streams the same numbered log.
//
// Order: each append takes one transaction-level advisory lock before it draws its seq, and keeps it until its
// transaction commits, so seq order is commit order (the signal cursor's argument, domain/signals/cursor.ts): a
// reader that has seen seq N never sees a smaller one appear later, and `seq > last` never misses. The writers are
// single statements (predictions, the live snapshot) or end with the append (signals), so the lock is held for a
// commit's time. A rolled-back append leaves a hole nobody fills; holes mean nothing to a client.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE SEQUENCE firehose_events_seq`);
  await knex.raw(`CREATE TABLE firehose_events (
    seq bigint PRIMARY KEY,
    kind text NOT NULL CHECK (kind IN ('score', 'live', 'signal')),
    payload jsonb NOT NULL,
    at timestamptz NOT NULL)`);
  // The prune finds the newest event past the retention window by time.
  await knex.raw('CREATE INDEX firehose_events_at ON firehose_events (at)');
  // Every seq <= pruned_through is gone: a client resuming from below it has a gap and must resync from REST.
  await knex.raw(`CREATE TABLE firehose_state (
    id smallint PRIMARY KEY CHECK (id = 1),
    pruned_through bigint NOT NULL)`);
  await knex.raw('INSERT INTO firehose_state (id, pruned_through) VALUES (1, 0)');

  // Times as the REST API writes them (UTC, milliseconds, Z), whatever the writer's session time zone.
  await knex.raw(`CREATE FUNCTION firehose_iso(t timestamptz) RETURNS text LANGUAGE sql IMMUTABLE AS
    $$ SELECT to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') $$`);

  // The notification only wakes the API processes' readers (the payload is empty so a transaction's are folded into one).
  await knex.raw(`CREATE FUNCTION firehose_append(p_kind text, p_payload jsonb) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_advisory_xact_lock(${FIREHOSE_APPEND_LOCK});
      INSERT INTO firehose_events (seq, kind, payload, at) VALUES (nextval('firehose_events_seq'), p_kind, p_payload, clock_timestamp());
      PERFORM pg_notify('firehose', '');
    END $$`);

  // New scores (30 s, 60 s): one statement-level append per insert, so a bulk insert costs one statement, not one per row.
  await knex.raw(`CREATE FUNCTION firehose_on_predictions() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT EXISTS (SELECT 1 FROM new_rows) THEN RETURN NULL; END IF;
      PERFORM pg_advisory_xact_lock(${FIREHOSE_APPEND_LOCK});
      INSERT INTO firehose_events (seq, kind, payload, at)
      SELECT nextval('firehose_events_seq'), 'score', jsonb_build_object(
          'mint', r.mint, 'age_bucket', r.age_bucket, 'as_of', firehose_iso(r.as_of), 'predicted_at', firehose_iso(r.predicted_at),
          'grad_prob', r.grad_prob, 'rug_prob', r.rug_prob, 'runner_odds', r.runner_odds, 'price_sol', r.price_sol,
          'model_version', r.model_version), clock_timestamp()
      FROM (SELECT * FROM new_rows ORDER BY id) r;
      PERFORM pg_notify('firehose', '');
      RETURN NULL;
    END $$`);
  await knex.raw(`CREATE TRIGGER firehose_predictions AFTER INSERT ON predictions
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION firehose_on_predictions()`);

  // Delivered composite signals, with their feed cursor (the signals store takes its own lock first, then this one).
  await knex.raw(`CREATE FUNCTION firehose_on_signal() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM firehose_append('signal', jsonb_build_object('cursor', NEW.cursor, 'tier', NEW.tier,
        'delivered_at', firehose_iso(NEW.delivered_at), 'signal', NEW.payload));
      RETURN NULL;
    END $$`);
  await knex.raw('CREATE TRIGGER firehose_signals AFTER INSERT ON signals FOR EACH ROW EXECUTE FUNCTION firehose_on_signal()');

  // Live-list changes: the mints that entered (with rank and grad_prob) and left the real-time list at each refresh;
  // nothing when its membership did not change. A body that is not the projector's JSON is skipped, never a failed write.
  await knex.raw(`CREATE FUNCTION firehose_on_live_snapshot() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      new_list jsonb;
      old_list jsonb := '[]';
      entered jsonb;
      gone jsonb;
    BEGIN
      BEGIN
        new_list := coalesce(NEW.body::jsonb -> 'mints', '[]');
        IF TG_OP = 'UPDATE' THEN old_list := coalesce(OLD.body::jsonb -> 'mints', '[]'); END IF;
      EXCEPTION WHEN others THEN
        RETURN NULL;
      END;
      SELECT coalesce(jsonb_agg(jsonb_build_object('mint', n.e ->> 'mint', 'rank', n.i, 'grad_prob', n.e -> 'grad_prob') ORDER BY n.i), '[]')
        INTO entered
        FROM jsonb_array_elements(new_list) WITH ORDINALITY n(e, i)
        WHERE n.e ->> 'mint' NOT IN (SELECT o ->> 'mint' FROM jsonb_array_elements(old_list) o WHERE o ->> 'mint' IS NOT NULL);
      SELECT coalesce(jsonb_agg(o ->> 'mint'), '[]') INTO gone
        FROM jsonb_array_elements(old_list) o
        WHERE o ->> 'mint' NOT IN (SELECT n ->> 'mint' FROM jsonb_array_elements(new_list) n WHERE n ->> 'mint' IS NOT NULL);
      IF entered = '[]' AND gone = '[]' THEN RETURN NULL; END IF;
      PERFORM firehose_append('live', jsonb_build_object('version', NEW.version, 'built_at', firehose_iso(NEW.built_at),
        'count', NEW.count, 'entered', entered, 'left', gone));
      RETURN NULL;
    END $$`);
  await knex.raw(`CREATE TRIGGER firehose_live_snapshot AFTER INSERT OR UPDATE ON live_snapshots
    FOR EACH ROW WHEN (NEW.name = 'live') EXECUTE FUNCTION firehose_on_live_snapshot()`);
}

export async function down(): Promise<void> {
  throw new Error('forward-only migration');
}
