import { preparedQuery } from '../../platform/db';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export type Granted = { granted: number; used: number };

/**
 * Daily call counts per key, kept in Postgres so every API process counts against the same row. One statement
 * asks for `n` calls and is granted as many as fit under the limit: the upsert in `api_quota_consume` holds the
 * row lock, so concurrent statements from any number of processes never push `used` past the limit. Calls that
 * did not fit go to `over_quota`. It is on every keyed call's path, so it runs as a prepared statement.
 */
export function createUsageStore(handle: Db) {
  const db = knexOf(handle);
  return {
    async consume(keyId: number, day: string, n: number, limit: number): Promise<Granted> {
      if (!(n >= 1)) throw new Error(`consume needs at least one call, got ${n}`);
      const rows = await preparedQuery<{ used_now: number; granted_now: number }>(db, {
        name: 'api_quota_consume',
        text: 'SELECT used_now, granted_now FROM api_quota_consume($1, $2, $3, $4)',
        values: [keyId, day, n, Math.max(0, limit)],
      });
      return { granted: Number(rows[0]!.granted_now), used: Number(rows[0]!.used_now) };
    },

    /**
     * `consume` for several (key, day) counts in one statement (migration 0027), answered in the order asked. A
     * (key, day) may appear twice (its limit changed between two calls): the second sees the first's count.
     */
    async consumeMany(asks: readonly { keyId: number; day: string; n: number; limit: number }[]): Promise<Granted[]> {
      if (asks.some((a) => !(a.n >= 1))) throw new Error('consumeMany needs at least one call per key');
      const rows = await preparedQuery<{ i: number; used_now: number; granted_now: number }>(db, {
        name: 'api_quota_consume_many',
        text: 'SELECT i, used_now, granted_now FROM api_quota_consume_many($1::bigint[], $2::date[], $3::int[], $4::int[])',
        values: [asks.map((a) => a.keyId), asks.map((a) => a.day), asks.map((a) => a.n), asks.map((a) => Math.max(0, a.limit))],
      });
      const out: Granted[] = new Array(asks.length);
      for (const r of rows) out[Number(r.i) - 1] = { granted: Number(r.granted_now), used: Number(r.used_now) };
      return out;
    },

    /**
     * Per key, the calls waiting now (`calls`) plus a block of `extra` to serve later ones from memory, in one
     * statement (migration 0034): granted what fits under the limit, waiting calls first; only waiting calls that
     * found no room count as over quota. Answered in the order asked.
     */
    async leaseMany(asks: readonly { keyId: number; day: string; calls: number; extra: number; limit: number }[]): Promise<Granted[]> {
      if (asks.some((a) => !(a.calls >= 1) || !(a.extra >= 0))) throw new Error('leaseMany needs at least one waiting call per key');
      const rows = await preparedQuery<{ i: number; used_now: number; granted_now: number }>(db, {
        name: 'api_quota_lease_many',
        text: 'SELECT i, used_now, granted_now FROM api_quota_lease_many($1::bigint[], $2::date[], $3::int[], $4::int[], $5::int[])',
        values: [asks.map((a) => a.keyId), asks.map((a) => a.day), asks.map((a) => a.calls), asks.map((a) => a.extra), asks.map((a) => Math.max(0, a.limit))],
      });
      const out: Granted[] = new Array(asks.length);
      for (const r of rows) out[Number(r.i) - 1] = { granted: Number(r.granted_now), used: Number(r.used_now) };
      return out;
    },

    /** Returns leased calls that were never served (`used` down, never below zero; not a refund of a served call). */
    async returnMany(returns: readonly { keyId: number; day: string; n: number }[]): Promise<void> {
      if (returns.length === 0) return;
      await db.raw('SELECT api_quota_return_many(?::bigint[], ?::date[], ?::int[])', [
        returns.map((r) => r.keyId),
        returns.map((r) => r.day),
        returns.map((r) => r.n),
      ]);
    },

    /**
     * Gives back `n` calls counted on `day` (the service answered them with its own 5xx): `used` goes down, never
     * below zero, and `refunded` keeps the tally.
     */
    async refund(keyId: number, day: string, n: number): Promise<void> {
      await db('api_key_daily_usage')
        .where({ key_id: keyId, day })
        .update({ used: db.raw('GREATEST(used - ?, 0)', [n]), refunded: db.raw('refunded + ?', [n]) });
    },

    async usedOn(keyId: number, day: string): Promise<number> {
      const r = await db('api_key_daily_usage').where({ key_id: keyId, day }).first('used');
      return r ? Number(r.used) : 0;
    },
  };
}
export type UsageStore = ReturnType<typeof createUsageStore>;
