import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

/** Serialises every lease count-and-insert and renewal, in every process (distinct from the append lock). */
const LEASE_LOCK = 7_301_180_025;

export type LeaseCaps = { maxPerKey: number; maxConnections: number };
export type LeaseResult = { ok: true; id: number } | { ok: false; cap: 'key' | 'server' };

/**
 * Firehose connection leases (migration 0025): the caps per key and in all, counted over every API process. A lease
 * counts until its `expires_at`; its process renews it while the connection is open and deletes it when it closes.
 * Every statement runs under one transaction-level advisory lock and the database's clock, so a count and the insert
 * after it see the same leases, and a lease one process counts as expired is never renewed by another.
 */
export function createFirehoseLeaseStore(handle: Db) {
  const db = knexOf(handle);
  return {
    /**
     * A lease for one more connection of `keyId` (null: no key, only the overall cap), unless a cap is reached.
     * `closed`: leases of this process whose connections have closed but whose delete has not committed yet.
     */
    async acquire(o: { processId: string; keyId: number | null; leaseS: number; caps: LeaseCaps; closed: readonly number[] }): Promise<LeaseResult> {
      return db.transaction(async (trx) => {
        await trx.raw('SELECT pg_advisory_xact_lock(?)', [LEASE_LOCK]);
        await trx.raw('DELETE FROM firehose_leases WHERE expires_at <= clock_timestamp()');
        const r = await trx.raw(
          `SELECT count(*) AS total, count(*) FILTER (WHERE key_id = ?) AS for_key FROM firehose_leases WHERE NOT (id = ANY(?::bigint[]))`,
          [o.keyId, o.closed as number[]],
        );
        const { total, for_key } = r.rows[0] as { total: string; for_key: string };
        if (Number(total) >= o.caps.maxConnections) return { ok: false as const, cap: 'server' as const };
        if (o.keyId !== null && Number(for_key) >= o.caps.maxPerKey) return { ok: false as const, cap: 'key' as const };
        const ins = await trx.raw(
          `INSERT INTO firehose_leases (process_id, key_id, expires_at, created_at)
           VALUES (?, ?, clock_timestamp() + make_interval(secs => ?), clock_timestamp()) RETURNING id`,
          [o.processId, o.keyId, o.leaseS],
        );
        return { ok: true as const, id: Number(ins.rows[0].id) };
      });
    },

    /**
     * Extends the leases `ids` that have not expired, and deletes `release` (leases whose own delete failed).
     * Returns the ids renewed: a lease missing from it has lapsed and may already be counted as free elsewhere.
     */
    async renew(o: { ids: readonly number[]; release: readonly number[]; leaseS: number }): Promise<Set<number>> {
      return db.transaction(async (trx) => {
        await trx.raw('SELECT pg_advisory_xact_lock(?)', [LEASE_LOCK]);
        if (o.release.length) await trx.raw('DELETE FROM firehose_leases WHERE id = ANY(?::bigint[])', [o.release as number[]]);
        if (!o.ids.length) return new Set<number>();
        const r = await trx.raw(
          `UPDATE firehose_leases SET expires_at = clock_timestamp() + make_interval(secs => ?)
            WHERE id = ANY(?::bigint[]) AND expires_at > clock_timestamp() RETURNING id`,
          [o.leaseS, o.ids as number[]],
        );
        return new Set((r.rows as { id: string }[]).map((x) => Number(x.id)));
      });
    },

    /** A closed connection's lease: it stops counting at once (no lock: a delete only frees a place). */
    async release(ids: readonly number[]): Promise<void> {
      if (ids.length) await db.raw('DELETE FROM firehose_leases WHERE id = ANY(?::bigint[])', [ids as number[]]);
    },

    /** Open leases, per key and in all (tests and the benchmark). */
    async count(keyId: number | null = null): Promise<{ total: number; forKey: number }> {
      const r = await db.raw(
        `SELECT count(*) AS total, count(*) FILTER (WHERE key_id = ?) AS for_key FROM firehose_leases WHERE expires_at > clock_timestamp()`,
        [keyId],
      );
      return { total: Number(r.rows[0].total), forKey: Number(r.rows[0].for_key) };
    },
  };
}
export type FirehoseLeaseStore = ReturnType<typeof createFirehoseLeaseStore>;
