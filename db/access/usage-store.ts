import type { Knex } from 'knex';

export type Granted = { granted: number; used: number };

/**
 * Daily call counts per key, kept in Postgres so every API process counts against the same row. One statement
 * asks for `n` calls and is granted as many as fit under the limit: the upsert holds the row lock, so concurrent
 * statements from any number of processes never push `used` past the limit. Calls that did not fit go to
 * `over_quota`; `last_granted` carries this statement's grant back through RETURNING.
 */
export function createUsageStore(db: Knex) {
  return {
    async consume(keyId: number, day: string, n: number, limit: number): Promise<Granted> {
      if (!(n >= 1)) throw new Error(`consume needs at least one call, got ${n}`);
      const r = await db.raw(
        `INSERT INTO api_key_daily_usage AS u (key_id, day, used, over_quota, last_granted)
         VALUES (:keyId, :day, api_quota_grant(0, :n, :limit), :n - api_quota_grant(0, :n, :limit), api_quota_grant(0, :n, :limit))
         ON CONFLICT (key_id, day) DO UPDATE SET
           used = u.used + api_quota_grant(u.used, :n, :limit),
           over_quota = u.over_quota + :n - api_quota_grant(u.used, :n, :limit),
           last_granted = api_quota_grant(u.used, :n, :limit)
         RETURNING used, last_granted`,
        { keyId, day, n, limit: Math.max(0, limit) },
      );
      return { granted: Number(r.rows[0].last_granted), used: Number(r.rows[0].used) };
    },

    async usedOn(keyId: number, day: string): Promise<number> {
      const r = await db('api_key_daily_usage').where({ key_id: keyId, day }).first('used');
      return r ? Number(r.used) : 0;
    },
  };
}
export type UsageStore = ReturnType<typeof createUsageStore>;
