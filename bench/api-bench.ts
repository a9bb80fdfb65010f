import path from 'node:path';
import { migrateToLatest } from '../db/migrate';
import { createDb } from '../platform/db';
import { ensureDatabase, startLocalPostgres } from '../scripts/lib/local-postgres';
import { freePort } from '../scripts/lib/local-temporal';
import { machineLine, measure, spawnApi, type LoadResult } from './lib/load';
import { asDb } from '../db/knex-handle';

const root = path.resolve(__dirname, '..');

/**
 * `npm run bench:api [-- seconds]`: autocannon against /api/health, /api/scope and an empty /api/live on
 * loopback, with response validation off (production) and on (development/tests). Prints requests/s, p50/p99
 * and the validator's cost. Load generator and server share the machine's cores, so compare ratios.
 */
const DURATION_S = Number(process.argv[2] ?? 8);
const CONNECTIONS = 16;
const ROUTES = ['/api/health', '/api/scope', '/api/live'];

async function main() {
  const pg = await startLocalPostgres(path.join(root, '.data'), 'bench', 54349);
  await ensureDatabase(pg.url('postgres'), 'launchpad_bench');
  const db = asDb(createDb(pg.url('launchpad_bench'), 2));
  await migrateToLatest(db);
  await db.destroy();
  const results: Record<string, Record<string, LoadResult>> = {};

  for (const validateResponses of [false, true]) {
    const api = await spawnApi(pg.url('launchpad_bench'), await freePort(), { VALIDATE_RESPONSES: String(validateResponses), LOG_LEVEL: 'warn' });
    const mode = validateResponses ? 'on' : 'off';
    results[mode] = {};
    for (const route of ROUTES) results[mode]![route] = await measure(api.base + route, { connections: CONNECTIONS, durationS: DURATION_S });
    await api.stop();
  }

  console.log(`\nbench:api — ${machineLine()}, ${CONNECTIONS} connections, ${DURATION_S}s per route, loopback`);
  console.log('| route | validation | req/s | p50 ms | p99 ms | statuses |\n|---|---|---|---|---|---|');
  for (const [mode, byRoute] of Object.entries(results)) {
    for (const [route, x] of Object.entries(byRoute)) console.log(`| ${route} | ${mode} | ${x.rps} | ${x.p50} | ${x.p99} | ${x.status} |`);
  }
  console.log('\nresponse-validation cost (req/s on ÷ req/s off):');
  for (const route of ROUTES) console.log(`  ${route}: ${(results.on![route]!.rps / results.off![route]!.rps).toFixed(2)}×`);
  if (pg.startedHere) await pg.stop();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
