import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { migrateToLatest } from '../../db/migrate';
import { createDb } from '../../platform/db';
import { ensureDatabase, startLocalPostgres } from '../../scripts/lib/local-postgres';
import { freePort, startLocalTemporal } from '../../scripts/lib/local-temporal';
import { bundleWorkflows } from '../../workers/workflow-bundle';
import { CACHE_DIR, ROOT, RUN_ID, writeTestEnv } from './test-env';
import { asDb } from '../../db/knex-handle';

/**
 * Starts the real servers once per test run: the project's test PostgreSQL cluster (or TEST_DATABASE_URL's
 * server), shared by concurrent runs, and an in-memory Temporal dev server of this run's own on a free port (or
 * TEST_TEMPORAL_ADDRESS), so neither a running `npm start` nor another test run is ever touched.
 * A migrated template database makes each test file's fresh database a cheap copy.
 */
// TEST_PG_PORT lets a second checkout (a git worktree) run its tests beside this one's cluster.
const TEST_PG_PORT = Number(process.env.TEST_PG_PORT ?? 54339);
/** Databases of this run carry its pid, so a later run can tell leftovers of dead runs from live ones. */
export const RUN_DB_PREFIX = `launchpad_t${process.pid}_`;
const TEMPLATE_DB = `${RUN_DB_PREFIX}template`;

export default async function globalSetup(): Promise<void> {
  const started = Date.now();
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const pg = await startLocalPostgres(path.join(ROOT, '.data'), 'test', TEST_PG_PORT);
    adminUrl = pg.url('postgres');
    // Another run may still be using a cluster it found running; only the run that started it stops it.
    if (pg.startedHere) (globalThis as Record<string, unknown>).__stopPostgres = pg.stop;
  }
  await recreateTemplate(adminUrl);

  let temporalAddress = process.env.TEST_TEMPORAL_ADDRESS;
  if (!temporalAddress) {
    const t = await startLocalTemporal({ port: await freePort(), logFile: path.join(CACHE_DIR, 'temporal.log') });
    temporalAddress = t.address;
    (globalThis as Record<string, unknown>).__stopTemporal = t.stop;
  }

  const bundle = await bundleWorkflows();
  const workflowBundlePath = path.join(CACHE_DIR, `workflow-bundle-${RUN_ID}.js`);
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  fs.writeFileSync(workflowBundlePath, bundle.code);

  writeTestEnv({ adminUrl, templateDb: TEMPLATE_DB, dbPrefix: RUN_DB_PREFIX, temporalAddress, workflowBundlePath });
  console.log(`\ntest services ready in ${Date.now() - started} ms (postgres ${adminUrl}, temporal ${temporalAddress})`);
}

async function recreateTemplate(adminUrl: string): Promise<void> {
  const c = new Client({ connectionString: adminUrl });
  await c.connect();
  try {
    // Databases left by runs that died (a killed run cannot clean up) go first; live runs' stay.
    const old = await c.query(`SELECT datname FROM pg_database WHERE datname ~ '^launchpad_t[0-9]+_'`);
    for (const r of old.rows as { datname: string }[]) {
      const pid = Number(/^launchpad_t(\d+)_/.exec(r.datname)![1]);
      if (pid === process.pid || !isAlive(pid)) await c.query(`DROP DATABASE IF EXISTS "${r.datname}" WITH (FORCE)`);
    }
  } finally {
    await c.end();
  }
  await ensureDatabase(adminUrl, TEMPLATE_DB);
  const url = new URL(adminUrl);
  url.pathname = `/${TEMPLATE_DB}`;
  const db = asDb(createDb(url.toString(), 1));
  await migrateToLatest(db);
  await db.destroy();
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
