import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../platform/config';
import { createDb } from '../platform/db';
import { migrateToLatest } from '../db/migrate';
import { ensureDatabase, startLocalPostgres, type LocalPostgres } from './lib/local-postgres';
import { startLocalTemporal, type LocalTemporal } from './lib/local-temporal';
import { waitFor } from './lib/run';

/**
 * `npm start`: the whole system on one machine. Brings up PostgreSQL (unless DATABASE_URL), the Temporal dev
 * server with its Web UI (unless TEMPORAL_ADDRESS), runs migrations, then the worker and the API as child
 * processes. Ctrl-C stops everything, children first.
 */
const DEV_PG_PORT = 54329;
const DEV_TEMPORAL_PORT = 7233;
const DEV_TEMPORAL_UI_PORT = 8233;

async function main() {
  const cfg = loadConfig();
  const root = path.resolve(__dirname, '..');
  const dataDir = path.resolve(root, cfg.dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  const stops: (() => Promise<void>)[] = [];

  let databaseUrl = cfg.databaseUrl;
  let pg: LocalPostgres | undefined;
  if (!databaseUrl) {
    console.log('• starting local PostgreSQL …');
    pg = await startLocalPostgres(dataDir, 'dev', DEV_PG_PORT);
    await ensureDatabase(pg.url('postgres'), 'launchpad');
    databaseUrl = pg.url('launchpad');
    stops.push(pg.stop);
  }
  const db = createDb(databaseUrl, 2);
  const applied = await migrateToLatest(db);
  await db.destroy();
  console.log(`• database ready (${applied.length} migration(s) applied)`);

  let temporalAddress = cfg.temporal.address;
  let temporal: LocalTemporal | undefined;
  if (!temporalAddress) {
    console.log('• starting Temporal dev server (the first run builds the CLI with Go, a few minutes) …');
    temporal = await startLocalTemporal({
      port: DEV_TEMPORAL_PORT,
      uiPort: DEV_TEMPORAL_UI_PORT,
      dbFile: path.join(dataDir, 'temporal', 'dev.db'),
      logFile: path.join(dataDir, 'temporal.log'),
    });
    temporalAddress = temporal.address;
    stops.push(temporal.stop);
  }

  const env = { ...process.env, DATABASE_URL: databaseUrl, TEMPORAL_ADDRESS: temporalAddress, EXPECTED_DAEMONS: process.env.EXPECTED_DAEMONS ?? 'api,worker,ingest' };
  const children: ChildProcess[] = [];
  const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
  for (const [name, entry] of [
    ['worker', 'workers/main-worker.ts'],
    ['api', 'api/server.ts'],
    ['ingest', 'ingest/main-ingest.ts'],
  ] as const) {
    const child = spawn(tsx, [path.join(root, entry)], { env, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('exit', (code, signal) => {
      if (!shuttingDown) console.error(`${name} exited (${code ?? signal}); stopping`);
      void shutdown();
    });
    children.push(child);
  }

  const apiUrl = `http://${cfg.api.host}:${cfg.api.port}`;
  await waitFor('the API', async () => (await fetch(`${apiUrl}/api/health`)).ok, 120_000);
  console.log(`
  API              ${apiUrl}
  Interactive docs ${apiUrl}/docs
  Live list        ${apiUrl}/api/live   (simulated launches by default; scores appear at 30 s and 60 s of age)
  Health           ${apiUrl}/api/health
  Temporal UI      ${temporal?.uiUrl ?? '(external Temporal at ' + temporalAddress + ')'}
  Press Ctrl-C to stop.
`);

  let shuttingDown = false;
  async function shutdown() {
    if (shuttingDown) return;
    shuttingDown = true;
    console.log('• stopping …');
    await Promise.all(
      children.map(
        (c) =>
          new Promise<void>((resolve) => {
            if (c.exitCode !== null || c.signalCode !== null) return resolve();
            c.once('exit', () => resolve());
            c.kill('SIGINT');
            setTimeout(() => c.kill('SIGKILL'), 15_000).unref();
          }),
      ),
    );
    for (const stop of stops.reverse()) await stop().catch((e) => console.error(e));
    process.exit(0);
  }
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
