import path from 'node:path';
import { Client } from 'pg';
import { migrateToLatest } from '../../db/migrate';
import { createDb } from '../../platform/db';
import { startLocalPostgres } from '../../scripts/lib/local-postgres';
import { asDb } from '../../db/knex-handle';

const root = path.resolve(__dirname, '..', '..');

/**
 * A freshly created, migrated database for a benchmark. With `TEST_PG_PORT` set it lives on this worktree's test
 * cluster (`.data/postgres/test` on that port, as `npm test` and bench:auth use it), so benchmarks in several
 * worktrees never share a server; otherwise on `.data/postgres/bench` (port 54349), as bench-db.ts does.
 */
export async function benchDatabase(name: string) {
  const envPort = Number(process.env.TEST_PG_PORT ?? NaN);
  const [cluster, port] = Number.isInteger(envPort) && envPort > 0 ? ['test', envPort] : ['bench', 54349];
  const pg = await startLocalPostgres(path.join(root, '.data'), cluster, port);
  const admin = new Client({ connectionString: pg.url('postgres') });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const db = asDb(createDb(pg.url(name), 16));
  await migrateToLatest(db);
  return {
    db,
    url: pg.url(name),
    dataDir: path.join(root, '.data', 'postgres', cluster),
    stop: async () => {
      if (pg.startedHere) await pg.stop();
    },
  };
}
