import type { Knex } from 'knex';
import { planHourCommit } from '../../domain/ledger/commit-chain';
import type { CommitRecord } from '../../domain/ledger/commit-record';
import { PERPS_ENTRY_LEAF_V1, type PerpsEntryLeafInputV1 } from '../../domain/ledger/perps-entry-leaf';

// Forward-only. The perps track joins the audit ledger (issue 22 on issue 18's machinery): smart entries are sealed
// and committed by the ledger's schedule like every other track, and the commits the perps area made on its own
// chain (perps_ledger_commits, migration 0013) are carried over into ledger_commits unchanged (same root, previous
// root, record digest and commit time), so no published root changes or disappears and the chain continues from
// its last root. Each carried commit gets its tree (so its entries have proofs) when the hour's smart entries, as
// stored now, rebuild its root; an hour they no longer rebuild (a row written into it after it was committed: the
// old chain had no seal) keeps its record without proofs, and is listed in ledger_perps_carry_gaps.
//
// It builds leaves with the frozen perps leaf v1 (domain/perps/perps-entry-leaf.ts): a leaf version never changes
// its bytes, so this migration computes today what it computed when it ran.
export async function up(knex: Knex): Promise<void> {
  // The seal, as on every track (migration 0012's trigger): no entry enters, leaves or moves within a sealed hour.
  await knex.raw(`CREATE TRIGGER perps_entries_ledger_seal BEFORE INSERT OR UPDATE OR DELETE ON perps_entries
    FOR EACH ROW EXECUTE FUNCTION ledger_refuse_sealed_row('perps', 'detected_at')`);
  // Entries are immutable but for the judging outbox (judging_started_at): a sealed entry's leaf fields, and whether
  // it is smart (a leaf at all), never change, so what the seal counted is what is committed and proved.
  await knex.raw(`CREATE FUNCTION perps_refuse_sealed_leaf_change() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      v_sealed timestamptz;
    BEGIN
      PERFORM pg_advisory_xact_lock_shared(hashtext('ledger_seal:perps'));
      SELECT s.sealed_until INTO v_sealed FROM ledger_seals s WHERE s.track = 'perps';
      IF v_sealed IS NOT NULL AND OLD.detected_at < v_sealed
        AND (NEW.exchange, NEW.wallet, NEW.market, NEW.side, NEW.kind, NEW.size, NEW.entry_px, NEW.price_at_detection,
             NEW.position_value_usd, NEW.leverage, NEW.wallet_roi_30d, NEW.smart_score, NEW.smart, NEW.whale,
             NEW.rule_version, NEW.entry_rule_version, NEW.detected_at)
          IS DISTINCT FROM (OLD.exchange, OLD.wallet, OLD.market, OLD.side, OLD.kind, OLD.size, OLD.entry_px, OLD.price_at_detection,
             OLD.position_value_usd, OLD.leverage, OLD.wallet_roi_30d, OLD.smart_score, OLD.smart, OLD.whale,
             OLD.rule_version, OLD.entry_rule_version, OLD.detected_at) THEN
        RAISE EXCEPTION 'ledger: perps is sealed before % (committed hours); a leaf change of the entry at % refused', v_sealed, OLD.detected_at
          USING ERRCODE = 'LG001', TABLE = TG_TABLE_NAME;
      END IF;
      RETURN NEW;
    END $$`);
  await knex.raw(`CREATE TRIGGER perps_entries_sealed_leaf BEFORE UPDATE ON perps_entries
    FOR EACH ROW EXECUTE FUNCTION perps_refuse_sealed_leaf_change()`);

  // Carried hours whose tree the stored entries no longer rebuild (none, unless the old chain was written behind).
  await knex.raw(`CREATE TABLE ledger_perps_carry_gaps (
    hour_start timestamptz PRIMARY KEY,
    leaf_count integer NOT NULL,
    rows_now integer NOT NULL,
    noted_at timestamptz NOT NULL DEFAULT now())`);

  const old = await knex('perps_ledger_commits').orderBy('hour_start');
  let previous: CommitRecord | null = null;
  for (const o of old) {
    const record: CommitRecord = {
      track: 'perps',
      hourStart: o.hour_start,
      leafVersion: Number(o.leaf_version),
      leafCount: Number(o.leaf_count),
      firstId: Number(o.first_id),
      lastId: Number(o.last_id),
      rootHex: o.root_hex,
      prevRootHex: o.prev_root_hex,
    };
    const tree = await rebuild(knex, record, o.committed_at, previous);
    await knex('ledger_sealed_hours').insert({ track: 'perps', hour_start: record.hourStart, row_count: record.leafCount, sealed_at: o.committed_at });
    const [row] = await knex('ledger_commits')
      .insert({
        track: 'perps',
        hour_start: record.hourStart,
        leaf_version: record.leafVersion,
        leaf_count: record.leafCount,
        first_id: record.firstId,
        last_id: record.lastId,
        root_hex: record.rootHex,
        prev_root_hex: record.prevRootHex,
        record_digest_hex: o.record_digest_hex,
        committed_at: o.committed_at,
      })
      .returning('id');
    const commitId = Number(row.id);
    if (tree) {
      await knex('ledger_tree_levels').insert(tree.levels.map((nodes, level) => ({ commit_id: commitId, level, nodes: Buffer.from(nodes) })));
      await knex.raw(
        `INSERT INTO ledger_leaves (track, item_id, commit_id, leaf_index)
         SELECT 'perps', u.item_id, ?, (u.ord - 1)::int FROM unnest(?::bigint[]) WITH ORDINALITY AS u(item_id, ord)`,
        [commitId, `{${tree.ids.join(',')}}`],
      );
    }
    previous = record;
  }
  if (previous) {
    // The generic seal continues after the last carried hour (the old chain committed every hour before it in order).
    await knex('ledger_seals')
      .where({ track: 'perps' })
      .update({ sealed_until: new Date(previous.hourStart.getTime() + 3_600_000), updated_at: knex.fn.now() });
  }
  await knex.schema.dropTable('perps_ledger_commits');
}

/**
 * The tree of a carried commit from the hour's smart entries as stored now: all of them, or else those written
 * by its commit time (an entry written into the hour later was never in it). Null when neither gives its root.
 */
async function rebuild(knex: Knex, record: CommitRecord, committedAt: Date, previous: CommitRecord | null) {
  const end = new Date(record.hourStart.getTime() + 3_600_000);
  const rows = await knex('perps_entries').where({ smart: true }).andWhere('detected_at', '>=', record.hourStart).andWhere('detected_at', '<', end);
  const attempt = (subset: Record<string, any>[]) => {
    if (subset.length !== record.leafCount) return null;
    try {
      const leaves = subset.map((r) => PERPS_ENTRY_LEAF_V1.build(leafInput(r)));
      const plan = planHourCommit({ track: 'perps', leafVersion: 1, hourStart: record.hourStart, leaves, previous });
      return plan && plan.record.rootHex === record.rootHex ? { levels: plan.levels, ids: plan.leaves.map((l) => l.id) } : null;
    } catch {
      return null; // a stored row that is no longer a valid leaf: the hour keeps its record without proofs
    }
  };
  const tree = attempt(rows) ?? attempt(rows.filter((r) => r.created_at.getTime() <= committedAt.getTime()));
  if (!tree) await knex('ledger_perps_carry_gaps').insert({ hour_start: record.hourStart, leaf_count: record.leafCount, rows_now: rows.length });
  return tree;
}

// Its own copy of db/ledger/perps-row-source.ts's perpsLeafInput, on purpose: a landed migration must rebuild the
// old chain's trees the same way for ever, whatever the row source becomes.
function leafInput(r: Record<string, any>): PerpsEntryLeafInputV1 {
  return {
    id: Number(r.id),
    exchange: r.exchange,
    wallet: r.wallet,
    market: r.market,
    side: r.side,
    kind: r.kind,
    size: r.size,
    entryPx: r.entry_px,
    priceAtDetection: r.price_at_detection,
    positionValueUsd: r.position_value_usd,
    leverage: r.leverage,
    walletRoi30d: r.wallet_roi_30d,
    smartScore: r.smart_score,
    whale: r.whale,
    ruleVersion: r.rule_version,
    entryRuleVersion: r.entry_rule_version,
    detectedAt: r.detected_at,
  };
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
