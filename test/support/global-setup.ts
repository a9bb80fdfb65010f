import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { migrateToLatest } from '../../db/migrate';
import { createDb } from '../../platform/db';
import { ensureDatabase, startLocalPostgres } from '../../scripts/lib/local-postgres';
import { startLocalTemporal } from '../../scripts/lib/local-temporal';
import { bundleWorkflows } from '../../workers/workflow-bundle';
import { CACHE_DIR, ROOT, writeTestEnv } from './test-env';

/**
 * Starts the real servers once per test run: a PostgreSQL cluster of its own (or TEST_DATABASE_URL's server)
 * and a Temporal dev server on test ports (or TEST_TEMPORAL_ADDRESS), so a running `npm start` is never touched.
 * A migrated template database makes each test file's fresh database a cheap copy.
 */
const TEST_PG_PORT = 54339;
const TEST_TEMPORAL_PORT = 7243;
const TEMPLATE_DB = 'launchpad_test_template';

export default async function globalSetup(): Promise<void> {
  const started = Date.now();
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const pg = await startLocalPostgres(path.join(ROOT, '.data'), 'test', TEST_PG_PORT);
    adminUrl = pg.url('postgres');
    (globalThis as Record<string, unknown>).__stopPostgres = pg.stop;
  }
  await recreateTemplate(adminUrl);

  let temporalAddress = process.env.TEST_TEMPORAL_ADDRESS;
  if (!temporalAddress) {
    const t = await startLocalTemporal({ port: TEST_TEMPORAL_PORT, logFile: path.join(CACHE_DIR, 'temporal.log') });
    temporalAddress = t.address;
    (globalThis as Record<string, unknown>).__stopTemporal = t.stop;
  }

  const bundle = await bundleWorkflows();
  const workflowBundlePath = path.join(CACHE_DIR, 'workflow-bundle.js');
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  fs.writeFileSync(workflowBundlePath, bundle.code);

  writeTestEnv({ adminUrl, templateDb: TEMPLATE_DB, temporalAddress, workflowBundlePath });
  console.log(`\ntest services ready in ${Date.now() - started} ms (postgres ${adminUrl}, temporal ${temporalAddress})`);
}

async function recreateTemplate(adminUrl: string): Promise<void> {
  const c = new Client({ connectionString: adminUrl });
  await c.connect();
  try {
    // Databases left by earlier runs (a killed run cannot clean up) go first.
    const old = await c.query(`SELECT datname FROM pg_database WHERE datname LIKE 'launchpad_test_%'`);
    for (const r of old.rows) await c.query(`DROP DATABASE IF EXISTS "${r.datname}" WITH (FORCE)`);
  } finally {
    await c.end();
  }
  await ensureDatabase(adminUrl, TEMPLATE_DB);
  const url = new URL(adminUrl);
  url.pathname = `/${TEMPLATE_DB}`;
  const db = createDb(url.toString(), 1);
  await migrateToLatest(db);
  await db.destroy();
}
