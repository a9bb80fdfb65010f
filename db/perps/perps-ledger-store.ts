import type { Knex } from 'knex';
import { commitRecordDigestHex, type CommitRecord } from '../../domain/ledger/commit-record';
import type { PerpsEntryLeafInputV1 } from '../../domain/perps/perps-entry-leaf';

export const PERPS_TRACK = 'perps';
export type StoredPerpsCommit = CommitRecord & { digestHex: string; committedAt: Date };

const HOUR_MS = 3_600_000;

/**
 * The perps ledger track: smart entries read as leaf inputs, and the hourly commits over them (one row per hour
 * that had smart entries, chained by prev_root). A commit is written once; committing an hour again changes nothing.
 */
export function createPerpsLedgerStore(db: Knex) {
  const toCommit = (r: Record<string, any>): StoredPerpsCommit => ({
    track: PERPS_TRACK,
    hourStart: r.hour_start,
    leafVersion: r.leaf_version,
    leafCount: r.leaf_count,
    firstId: Number(r.first_id),
    lastId: Number(r.last_id),
    rootHex: r.root_hex,
    prevRootHex: r.prev_root_hex,
    digestHex: r.record_digest_hex,
    committedAt: r.committed_at,
  });
  return {
    async latest(): Promise<StoredPerpsCommit | undefined> {
      const r = await db('perps_ledger_commits').orderBy('hour_start', 'desc').first();
      return r && toCommit(r);
    },

    /** Starts of the hours at or after `from` and before `before` holding smart entries, oldest first. */
    async hoursWithSmartEntries(from: Date | null, before: Date, limit: number): Promise<Date[]> {
      const q = db('perps_entries')
        .where({ smart: true })
        .andWhere('detected_at', '<', before)
        .select(db.raw('floor(extract(epoch FROM detected_at) / 3600)::bigint AS h'))
        .groupBy('h')
        .orderBy('h')
        .limit(limit);
      if (from) q.andWhere('detected_at', '>=', from);
      const rows = await q;
      return rows.map((r: { h: string | number }) => new Date(Number(r.h) * HOUR_MS));
    },

    async smartEntryLeaves(hourStart: Date): Promise<PerpsEntryLeafInputV1[]> {
      const rows = await db('perps_entries')
        .where({ smart: true })
        .andWhere('detected_at', '>=', hourStart)
        .andWhere('detected_at', '<', new Date(hourStart.getTime() + HOUR_MS))
        .orderBy([{ column: 'detected_at' }, { column: 'id' }]);
      return rows.map((r: Record<string, any>) => ({
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
      }));
    },

    /** Stores a commit; false when the hour was already committed (a retry, or another run got there first). */
    async insert(record: CommitRecord, committedAt: Date): Promise<boolean> {
      const rows = await db('perps_ledger_commits')
        .insert({
          hour_start: record.hourStart,
          leaf_version: record.leafVersion,
          leaf_count: record.leafCount,
          first_id: record.firstId,
          last_id: record.lastId,
          root_hex: record.rootHex,
          prev_root_hex: record.prevRootHex,
          record_digest_hex: commitRecordDigestHex(record),
          committed_at: committedAt,
        })
        .onConflict('hour_start')
        .ignore()
        .returning('hour_start');
      return rows.length > 0;
    },

    async list(limit: number): Promise<StoredPerpsCommit[]> {
      return (await db('perps_ledger_commits').orderBy('hour_start', 'desc').limit(limit)).map(toCommit);
    },

    async count(): Promise<number> {
      const r = await db('perps_ledger_commits').first(db.raw('count(*)::int AS n'));
      return (r as { n: number }).n;
    },
  };
}
export type PerpsLedgerStore = ReturnType<typeof createPerpsLedgerStore>;
