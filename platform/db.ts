import knex, { type Knex } from 'knex';
import { types } from 'pg';

// int8 (bigint) columns hold counts, ids and lamports that fit a JS number; parse them as numbers
// instead of strings so rows become plain domain objects at the store boundary.
types.setTypeParser(20, (v) => Number(v));
// numeric columns carry prices and probabilities.
types.setTypeParser(1700, (v) => Number(v));

/** Where knex's own warnings go (e.g. "Acquire connection error", once per failed connect), instead of the console. */
export type DbLog = { warn(message: string): void; error(message: string): void };

export type DbOptions = {
  /** How long a query waits for a pooled connection (knex's default is 60 s); a request path wants about a second. */
  acquireTimeoutMs?: number;
  /** Postgres cancels a statement that runs longer (server side, SQLSTATE 57014). */
  statementTimeoutMs?: number;
  log?: DbLog;
};

export function createDb(databaseUrl: string, poolMax = 10, o: DbOptions = {}): Knex {
  return knex({
    client: 'pg',
    connection:
      o.acquireTimeoutMs || o.statementTimeoutMs
        ? {
            connectionString: databaseUrl,
            // A connect that hangs (a partitioned server) gives up with the acquire; keepalive finds dead peers.
            connectionTimeoutMillis: o.acquireTimeoutMs,
            statement_timeout: o.statementTimeoutMs,
            keepAlive: true,
          }
        : databaseUrl,
    pool: { min: 0, max: poolMax },
    ...(o.acquireTimeoutMs ? { acquireConnectionTimeout: o.acquireTimeoutMs } : {}),
    ...(o.log ? { log: dbLog(o.log) } : {}),
  });
}

function dbLog(l: DbLog) {
  const warn = (m: unknown) => l.warn(String(m));
  return { warn, error: (m: unknown) => l.error(String(m)), deprecate: warn, debug: () => undefined };
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
