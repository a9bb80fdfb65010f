import path from 'node:path';
import { spawn } from 'node:child_process';
import os from 'node:os';
import autocannon from 'autocannon';
import { migrateToLatest } from '../db/migrate';
import { createDb } from '../platform/db';
import { ensureDatabase, startLocalPostgres } from '../scripts/lib/local-postgres';
import { waitFor } from '../scripts/lib/run';

const root = path.resolve(__dirname, '..');

/**
 * `npm run bench:api`: autocannon against /api/health, /api/scope and /api/live on loopback, with response
 * validation off (production) and on (development/tests). Prints requests/s, p50/p99 and the validator's cost.
 * Load generator and server share the machine's cores, so compare ratios, not absolute figures.
 */
const DURATION_S = Number(process.argv[2] ?? 8);
const CONNECTIONS = 16;
const ROUTES = ['/api/health', '/api/scope', '/api/live'];

async function main() {
  const pg = await startLocalPostgres(path.join(root, '.data'), 'test', 54339);
  await ensureDatabase(pg.url('postgres'), 'launchpad_bench');
  const db = createDb(pg.url('launchpad_bench'), 10);
  await migrateToLatest(db);
  const results: Record<string, Record<string, { rps: number; p50: number; p99: number; status: string }>> = {};

  for (const validateResponses of [false, true]) {
    // The API runs as its own process, as in production, so the load generator does not share its event loop.
    const port = 18000 + (validateResponses ? 1 : 0);
    const child = spawn(path.join(root, 'node_modules', '.bin', 'tsx'), [path.join(root, 'api', 'server.ts')], {
      env: { ...process.env, DATABASE_URL: pg.url('launchpad_bench'), API_PORT: String(port), LOG_LEVEL: 'warn', VALIDATE_RESPONSES: String(validateResponses), NODE_ENV: 'production' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const base = `http://127.0.0.1:${port}`;
    await waitFor('bench API', async () => (await fetch(`${base}/api/health`)).ok, 60_000);
    const mode = validateResponses ? 'validation on' : 'validation off';
    results[mode] = {};
    for (const route of ROUTES) {
      await autocannon({ url: base + route, connections: 4, duration: 1 }); // warm-up
      const r = await autocannon({ url: base + route, connections: CONNECTIONS, duration: DURATION_S });
      const statuses = Object.entries(r.statusCodeStats ?? {}).map(([code, s]) => `${code}×${(s as { count: number }).count}`).join(' ');
      results[mode]![route] = { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, status: statuses };
    }
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }

  console.log(`\nbench:api — ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ${CONNECTIONS} connections, ${DURATION_S}s per route, loopback`);
  console.log('| route | validation | req/s | p50 ms | p99 ms | statuses |\n|---|---|---|---|---|---|');
  for (const [mode, byRoute] of Object.entries(results)) {
    for (const [route, x] of Object.entries(byRoute)) console.log(`| ${route} | ${mode.replace('validation ', '')} | ${x.rps} | ${x.p50} | ${x.p99} | ${x.status} |`);
  }
  console.log('\nresponse-validation cost (req/s on ÷ req/s off):');
  for (const route of ROUTES) {
    const off = results['validation off']![route]!.rps;
    const on = results['validation on']![route]!.rps;
    console.log(`  ${route}: ${(on / off).toFixed(2)}×`);
  }
  await db.destroy();
  if (pg.startedHere) await pg.stop();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
