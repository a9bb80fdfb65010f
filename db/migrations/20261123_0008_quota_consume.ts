import type { Knex } from 'knex';

// Forward-only. The quota count as one function the API prepares once per connection, so a counted call costs
// Postgres an execute of a cached plan instead of a parse, plan and execute of the upsert.
export async function up(knex: Knex): Promise<void> {
  // Asynchronous commit for this transaction only: the count is visible to every process at once (the row lock
  // and the upsert keep it exact), but the call no longer waits for the WAL flush. The price is that a Postgres
  // crash can forget the last fraction of a second of counts — calls given back to the customer, never taken.
  // Payments, keys and predictions keep synchronous commit: only this counter opts out.
  await knex.raw(`CREATE FUNCTION api_quota_consume(p_key bigint, p_day date, p_n integer, p_lim integer, OUT used_now integer, OUT granted_now integer)
    LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM set_config('synchronous_commit', 'off', true);
      INSERT INTO api_key_daily_usage AS u (key_id, day, used, over_quota, last_granted)
      VALUES (p_key, p_day, api_quota_grant(0, p_n, p_lim), p_n - api_quota_grant(0, p_n, p_lim), api_quota_grant(0, p_n, p_lim))
      ON CONFLICT (key_id, day) DO UPDATE SET
        used = u.used + api_quota_grant(u.used, p_n, p_lim),
        over_quota = u.over_quota + p_n - api_quota_grant(u.used, p_n, p_lim),
        last_granted = api_quota_grant(u.used, p_n, p_lim)
      RETURNING u.used, u.last_granted INTO used_now, granted_now;
    END $$`);
}

export async function down(): Promise<void> {
  throw new Error('forward-only migrations');
}
