import knex, { type Knex } from 'knex';
import { types } from 'pg';

export type { Knex };

// int8 (bigint) columns hold counts, ids and lamports that fit a JS number; parse them as numbers
// instead of strings so rows become plain domain objects at the store boundary.
types.setTypeParser(20, (v) => Number(v));
// numeric columns carry prices and probabilities.
types.setTypeParser(1700, (v) => Number(v));

export function createDb(databaseUrl: string, poolMax = 10): Knex {
  return knex({
    client: 'pg',
    connection: databaseUrl,
    pool: { min: 0, max: poolMax },
  });
}

type PgConnection = { query(q: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }> };

/**
 * A named prepared statement on one of the pool's connections, bypassing the query builder: node-postgres
 * prepares `name` once per connection and afterwards sends only bind/execute. For the few statements on every
 * request's path, where knex's per-query work and Postgres' parse and plan are most of the cost. Behind PgBouncer
 * in transaction mode this needs its protocol-level prepared statement support (`max_prepared_statements`, 1.21+).
 */
export async function preparedQuery<Row>(db: Knex, q: { name: string; text: string; values: unknown[] }): Promise<Row[]> {
  const conn = (await db.client.acquireConnection()) as PgConnection;
  try {
    return (await conn.query(q)).rows as Row[];
  } finally {
    await db.client.releaseConnection(conn);
  }
}
