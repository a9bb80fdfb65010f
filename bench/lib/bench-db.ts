import path from 'node:path';
import { Client } from 'pg';
import { migrateToLatest } from '../../db/migrate';
import { createDb } from '../../platform/db';
import { startLocalPostgres } from '../../scripts/lib/local-postgres';
import { asDb } from '../../db/knex-handle';

const root = path.resolve(__dirname, '..', '..');

/**
 * A freshly created, migrated database on the benchmarks' own cluster (`.data/postgres/bench`, port 54349),
 * so a benchmark never measures leftovers of an earlier run and never touches the dev or test clusters.
 */
export async function freshBenchDatabase(name: string) {
  // BENCH_PG_PORT: another cluster, for a run beside another worktree's benchmark (which would stop the shared one under it).
  const pg = await startLocalPostgres(path.join(root, '.data'), 'bench', Number(process.env.BENCH_PG_PORT ?? 54349));
  const admin = new Client({ connectionString: pg.url('postgres') });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const db = asDb(createDb(pg.url(name), 4));
  await migrateToLatest(db);
  return {
    db,
    url: pg.url(name),
    dataDir: path.join(root, '.data', 'postgres', 'bench'),
    stop: async () => {
      if (pg.startedHere) await pg.stop();
    },
  };
}
