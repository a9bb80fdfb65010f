import type { Knex } from 'knex';

// Forward-only. The audit trail (issue 18): per track, a seal watermark the database enforces on the rows it
// commits, the sealed hours, their immutable commits (hash-chained), the stored tree levels proofs are cut from,
// each committed row's place in its tree, and the on-chain anchors of the roots.
export async function up(knex: Knex): Promise<void> {
  // Rows of a track whose time is before `sealed_until` are sealed: no row may enter, move into or leave that range
  // (ledger_refuse_sealed_row). NULL: nothing is sealed yet. Only ever moves forward.
  await knex.raw(`CREATE TABLE ledger_seals (
    track text PRIMARY KEY,
    sealed_until timestamptz,
    updated_at timestamptz)`);
  await knex.raw(`INSERT INTO ledger_seals (track) VALUES ('grad_prob'), ('composite'), ('perps')`);

  // A sealed hour that has rows, with their count at sealing: each gets exactly one commit.
  await knex.raw(`CREATE TABLE ledger_sealed_hours (
    track text NOT NULL REFERENCES ledger_seals (track),
    hour_start timestamptz NOT NULL,
    row_count integer NOT NULL CHECK (row_count >= 1),
    sealed_at timestamptz NOT NULL,
    PRIMARY KEY (track, hour_start))`);

  await knex.raw(`CREATE TABLE ledger_commits (
    id bigserial PRIMARY KEY,
    track text NOT NULL,
    hour_start timestamptz NOT NULL,
    leaf_version smallint NOT NULL CHECK (leaf_version >= 1),
    leaf_count integer NOT NULL CHECK (leaf_count >= 1),
    first_id bigint NOT NULL,
    last_id bigint NOT NULL,
    root_hex text NOT NULL CHECK (root_hex ~ '^[0-9a-f]{64}$'),
    prev_root_hex text CHECK (prev_root_hex ~ '^[0-9a-f]{64}$'),
    record_digest_hex text NOT NULL CHECK (record_digest_hex ~ '^[0-9a-f]{64}$'),
    committed_at timestamptz NOT NULL,
    UNIQUE (track, hour_start),
    FOREIGN KEY (track, hour_start) REFERENCES ledger_sealed_hours (track, hour_start))`);
  // A chain, not a tree: each root is followed at most once, and a track has one first commit.
  await knex.raw('CREATE UNIQUE INDEX ledger_commits_one_successor ON ledger_commits (track, prev_root_hex)');
  await knex.raw('CREATE UNIQUE INDEX ledger_commits_one_genesis ON ledger_commits (track) WHERE prev_root_hex IS NULL');

  // Every level of the tree, leaves first: a proof reads log2(n) 32-byte slices of these. Stored uncompressed
  // out of line (EXTERNAL), so a slice is read without reading the whole level (digests do not compress anyway).
  await knex.raw(`CREATE TABLE ledger_tree_levels (
    commit_id bigint NOT NULL REFERENCES ledger_commits (id),
    level smallint NOT NULL CHECK (level >= 0),
    nodes bytea NOT NULL CHECK (octet_length(nodes) > 0 AND octet_length(nodes) % 32 = 0),
    PRIMARY KEY (commit_id, level))`);
  await knex.raw('ALTER TABLE ledger_tree_levels ALTER COLUMN nodes SET STORAGE EXTERNAL');

  // Where each committed row sits: the primary key makes "committed in exactly one hour" a database fact. No foreign
  // key to the commit: both are written in one transaction, and a check per row would slow a 200,000-leaf commit.
  await knex.raw(`CREATE TABLE ledger_leaves (
    track text NOT NULL,
    item_id bigint NOT NULL,
    commit_id bigint NOT NULL,
    leaf_index integer NOT NULL CHECK (leaf_index >= 0),
    PRIMARY KEY (track, item_id))`);

  // Memo transactions sent for a commit, written before each is sent so a retry can find (and resend or replace) it.
  await knex.raw(`CREATE TABLE ledger_anchor_attempts (
    id bigserial PRIMARY KEY,
    commit_id bigint NOT NULL REFERENCES ledger_commits (id),
    signature text NOT NULL UNIQUE,
    signer text NOT NULL,
    memo text NOT NULL,
    raw_tx bytea NOT NULL,
    last_valid_block_height bigint NOT NULL,
    state text NOT NULL CHECK (state IN ('sent', 'confirmed', 'expired', 'failed')),
    error text,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL)`);
  await knex.raw('CREATE INDEX ledger_anchor_attempts_commit ON ledger_anchor_attempts (commit_id, id)');
  await knex.raw(`CREATE TABLE ledger_anchors (
    commit_id bigint PRIMARY KEY REFERENCES ledger_commits (id),
    memo text NOT NULL,
    signature text NOT NULL UNIQUE,
    signer text NOT NULL,
    slot bigint NOT NULL,
    block_time timestamptz,
    confirmed_at timestamptz NOT NULL)`);

  // The seal, enforced on a track's source table: ledger_refuse_sealed_row('<track>', '<time column>'[, 'immutable']).
  // Each write holds the track's advisory lock shared until it commits, and sealing takes it exclusively
  // (db/ledger/ledger-seal-store.ts), so a seal waits for writes in flight and writes wait for a seal in flight, then
  // read it. An advisory lock, not FOR SHARE on the seal row: concurrent share locks on one row cost a MultiXact each. Refused: an insert before the seal; an update or delete of a sealed row
  // (with 'immutable': any update; without: one that moves its time into, out of or within the sealed range).
  await knex.raw(`CREATE FUNCTION ledger_refuse_sealed_row() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      v_track text := TG_ARGV[0];
      v_col text := TG_ARGV[1];
      v_immutable boolean := coalesce(TG_ARGV[2], '') = 'immutable';
      v_sealed timestamptz;
      v_new timestamptz;
      v_old timestamptz;
    BEGIN
      PERFORM pg_advisory_xact_lock_shared(hashtext('ledger_seal:' || v_track));
      SELECT s.sealed_until INTO v_sealed FROM ledger_seals s WHERE s.track = v_track;
      IF v_sealed IS NOT NULL THEN
        IF TG_OP <> 'INSERT' THEN v_old := (to_jsonb(OLD) ->> v_col)::timestamptz; END IF;
        IF TG_OP <> 'DELETE' THEN v_new := (to_jsonb(NEW) ->> v_col)::timestamptz; END IF;
        IF (TG_OP = 'INSERT' AND v_new < v_sealed)
          OR (TG_OP = 'DELETE' AND v_old < v_sealed)
          OR (TG_OP = 'UPDATE' AND (v_new < v_sealed OR v_old < v_sealed) AND (v_immutable OR v_new IS DISTINCT FROM v_old)) THEN
          RAISE EXCEPTION 'ledger: % is sealed before % (committed hours); % of a row at % refused',
              v_track, v_sealed, lower(TG_OP), coalesce(v_new, v_old)
            USING ERRCODE = 'LG001', TABLE = TG_TABLE_NAME;
        END IF;
      END IF;
      RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
    END $$`);
  await knex.raw(`CREATE TRIGGER predictions_ledger_seal BEFORE INSERT OR UPDATE OR DELETE ON predictions
    FOR EACH ROW EXECUTE FUNCTION ledger_refuse_sealed_row('grad_prob', 'predicted_at', 'immutable')`);

  // Committed records are never changed or removed; the seal only moves forward.
  await knex.raw(`CREATE FUNCTION ledger_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      -- Nested: plpgsql may evaluate every operand of an AND, and other tables have no sealed_until.
      IF TG_TABLE_NAME = 'ledger_seals' AND TG_OP = 'UPDATE' THEN
        IF NEW.track = OLD.track AND (OLD.sealed_until IS NULL OR NEW.sealed_until >= OLD.sealed_until) THEN
          RETURN NEW;
        END IF;
      END IF;
      RAISE EXCEPTION 'ledger: % of % refused (the ledger is append-only)', lower(TG_OP), TG_TABLE_NAME USING ERRCODE = 'LG002';
    END $$`);
  for (const table of ['ledger_seals', 'ledger_sealed_hours', 'ledger_commits', 'ledger_tree_levels', 'ledger_leaves', 'ledger_anchors']) {
    await knex.raw(`CREATE TRIGGER ${table}_append_only BEFORE UPDATE OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change()`);
    await knex.raw(`CREATE TRIGGER ${table}_no_truncate BEFORE TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change()`);
  }
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
