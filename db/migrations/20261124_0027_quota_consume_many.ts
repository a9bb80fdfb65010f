import type { Knex } from 'knex';

// Forward-only. The quota count of several keys in one statement: an API process keeps one count in flight and
// asks for every key that called meanwhile in the next one, so 200 bots polling with 200 keys cost a few statements
// a second instead of 200 round trips holding 200 pool connections. Each key is counted by api_quota_consume
// (0008: exact under its row lock, asynchronous commit), in key order, so two processes' batches lock rows in one
// order and cannot deadlock. `i` is the request's position in the arrays.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE FUNCTION api_quota_consume_many(p_keys bigint[], p_days date[], p_ns integer[], p_lims integer[])
    RETURNS TABLE (i integer, used_now integer, granted_now integer)
    LANGUAGE plpgsql AS $$
    DECLARE r record;
    BEGIN
      FOR r IN SELECT t.k, t.d, t.n, t.l, t.o FROM unnest(p_keys, p_days, p_ns, p_lims) WITH ORDINALITY AS t(k, d, n, l, o) ORDER BY t.k, t.d, t.o LOOP
        SELECT c.used_now, c.granted_now INTO used_now, granted_now FROM api_quota_consume(r.k, r.d, r.n, r.l) c;
        i := r.o;
        RETURN NEXT;
      END LOOP;
    END $$`);
}

export async function down(): Promise<void> {
  throw new Error('forward-only migrations');
}
