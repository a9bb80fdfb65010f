import type { Knex } from 'knex';

/** The firehose append lock of migration 0018: every append takes it, so seq order is commit order. */
const FIREHOSE_APPEND_LOCK = 7_301_180_001;

/**
 * Events written long after they happened (the seeded history, a chain backfill, a feed catching up on a gap) are
 * history, not news: only what happened within this window of the write is appended. A buy counts when the mint
 * was at most this old, so "buys of new mints" is what a wallet topic follows.
 */
const RECENT = `interval '10 minutes'`;

// Forward-only. Three more kinds of firehose event for topic subscriptions (domain/firehose/firehose-topics.ts):
// `launch` (a new mint), `graduation` (a bonding curve completed, then its pool migrated: one event each) and `buy`
// (a buy of a new mint, with its wallet). Unsubscribed connections never see them; a subscription opts in.
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE firehose_events DROP CONSTRAINT firehose_events_kind_check');
  await knex.raw(`ALTER TABLE firehose_events ADD CONSTRAINT firehose_events_kind_check
    CHECK (kind IN ('score', 'live', 'signal', 'alert', 'launch', 'graduation', 'buy'))`);
  await knex.raw(`CREATE FUNCTION firehose_on_mints() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT EXISTS (SELECT 1 FROM new_rows WHERE created_at >= now() - ${RECENT}) THEN RETURN NULL; END IF;
      PERFORM pg_advisory_xact_lock(${FIREHOSE_APPEND_LOCK});
      INSERT INTO firehose_events (seq, kind, payload, at)
      SELECT nextval('firehose_events_seq'), 'launch', jsonb_build_object(
          'mint', r.mint, 'creator', r.creator, 'name', r.name, 'symbol', r.symbol, 'uri', r.uri, 'mayhem', r.mayhem,
          'created_at', firehose_iso(r.created_at), 'v_sol_lamports', r.initial_v_sol_lamports), clock_timestamp()
      FROM (SELECT * FROM new_rows WHERE created_at >= now() - ${RECENT} ORDER BY created_at, mint) r;
      PERFORM pg_notify('firehose', '');
      RETURN NULL;
    END $$`);
  await knex.raw(`CREATE TRIGGER firehose_mints AFTER INSERT ON mints
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION firehose_on_mints()`);

  // One statement per ingested batch: the batch's buys of young mints in one append.
  await knex.raw(`CREATE FUNCTION firehose_on_trades() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT EXISTS (SELECT 1 FROM new_rows t JOIN mints m ON m.mint = t.mint
                      WHERE t.is_buy AND t.at >= now() - ${RECENT} AND t.at <= m.created_at + ${RECENT}) THEN
        RETURN NULL;
      END IF;
      PERFORM pg_advisory_xact_lock(${FIREHOSE_APPEND_LOCK});
      INSERT INTO firehose_events (seq, kind, payload, at)
      SELECT nextval('firehose_events_seq'), 'buy', jsonb_build_object(
          'mint', t.mint, 'wallet', t.trader, 'sol_lamports', t.sol_lamports, 'tokens_raw', t.tokens_raw,
          'v_sol_lamports', t.v_sol_lamports, 'at', firehose_iso(t.at), 'signature', t.signature,
          'mint_age_s', round(extract(epoch FROM t.at - t.mint_created_at)::numeric, 3)), clock_timestamp()
      FROM (SELECT t.*, m.created_at AS mint_created_at FROM new_rows t JOIN mints m ON m.mint = t.mint
             WHERE t.is_buy AND t.at >= now() - ${RECENT} AND t.at <= m.created_at + ${RECENT} ORDER BY t.seq) t;
      PERFORM pg_notify('firehose', '');
      RETURN NULL;
    END $$`);
  await knex.raw(`CREATE TRIGGER firehose_trades AFTER INSERT ON trades
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION firehose_on_trades()`);

  // The row is inserted by the first of the two events and updated by the second: each fills one time once.
  await knex.raw(`CREATE FUNCTION firehose_on_graduation() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.completed_at IS NOT NULL AND (TG_OP = 'INSERT' OR OLD.completed_at IS NULL) AND NEW.completed_at >= now() - ${RECENT} THEN
        PERFORM firehose_append('graduation', jsonb_build_object('mint', NEW.mint, 'stage', 'completed',
          'completed_at', firehose_iso(NEW.completed_at), 'migrated_at', firehose_iso(NEW.migrated_at), 'pool', NEW.pool));
      END IF;
      IF NEW.migrated_at IS NOT NULL AND (TG_OP = 'INSERT' OR OLD.migrated_at IS NULL) AND NEW.migrated_at >= now() - ${RECENT} THEN
        PERFORM firehose_append('graduation', jsonb_build_object('mint', NEW.mint, 'stage', 'migrated',
          'completed_at', firehose_iso(NEW.completed_at), 'migrated_at', firehose_iso(NEW.migrated_at), 'pool', NEW.pool));
      END IF;
      RETURN NULL;
    END $$`);
  await knex.raw(`CREATE TRIGGER firehose_graduations AFTER INSERT OR UPDATE OF completed_at, migrated_at ON mint_graduations
    FOR EACH ROW EXECUTE FUNCTION firehose_on_graduation()`);
}

export async function down(): Promise<void> {
  throw new Error('forward-only migration');
}
