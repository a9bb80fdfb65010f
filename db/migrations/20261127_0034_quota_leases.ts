import type { Knex } from 'knex';

// Forward-only. Quota counted in blocks leased per API process and key (api/access/quota-leases.ts): one statement
// asks, per key, for the calls waiting now plus a block to serve the next ones from memory; it is granted what fits
// under the limit (api_quota_grant, 0008), waiting calls first. Only waiting calls that found no room are counted in
// `over_quota`: a block that was not granted was never asked for by a caller. Unused calls of a block go back with
// api_quota_return_many (`used` down, `refunded` untouched: they were never served). Both lock rows in key order,
// like api_quota_consume_many (0027), so batches of several processes cannot deadlock.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE FUNCTION api_quota_lease_many(p_keys bigint[], p_days date[], p_calls integer[], p_extra integer[], p_lims integer[])
    RETURNS TABLE (i integer, used_now integer, granted_now integer)
    LANGUAGE plpgsql AS $$
    DECLARE r record;
    BEGIN
      PERFORM set_config('synchronous_commit', 'off', true);
      FOR r IN SELECT t.k, t.d, t.n, t.x, t.l, t.o FROM unnest(p_keys, p_days, p_calls, p_extra, p_lims) WITH ORDINALITY AS t(k, d, n, x, l, o) ORDER BY t.k, t.d, t.o LOOP
        INSERT INTO api_key_daily_usage AS u (key_id, day, used, over_quota, last_granted)
        VALUES (r.k, r.d, api_quota_grant(0, r.n + r.x, r.l), GREATEST(r.n - api_quota_grant(0, r.n + r.x, r.l), 0), api_quota_grant(0, r.n + r.x, r.l))
        ON CONFLICT (key_id, day) DO UPDATE SET
          used = u.used + api_quota_grant(u.used, r.n + r.x, r.l),
          over_quota = u.over_quota + GREATEST(r.n - api_quota_grant(u.used, r.n + r.x, r.l), 0),
          last_granted = api_quota_grant(u.used, r.n + r.x, r.l)
        RETURNING u.used, u.last_granted INTO used_now, granted_now;
        i := r.o;
        RETURN NEXT;
      END LOOP;
    END $$`);
  await knex.raw(`CREATE FUNCTION api_quota_return_many(p_keys bigint[], p_days date[], p_ns integer[])
    RETURNS void
    LANGUAGE plpgsql AS $$
    DECLARE r record;
    BEGIN
      PERFORM set_config('synchronous_commit', 'off', true);
      FOR r IN SELECT t.k, t.d, t.n FROM unnest(p_keys, p_days, p_ns) AS t(k, d, n) ORDER BY t.k, t.d LOOP
        UPDATE api_key_daily_usage SET used = GREATEST(used - r.n, 0) WHERE key_id = r.k AND day = r.d;
      END LOOP;
    END $$`);
}

export async function down(): Promise<void> {
  throw new Error('forward-only migrations');
}
