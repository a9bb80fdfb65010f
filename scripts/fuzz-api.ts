import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import bs58 from 'bs58';
import YAML from 'yaml';
import { buildApiDeps } from '../api/api-deps';
import { createLiveProjector } from '../activities/mint/live-projector';
import { createLaunchEventStore } from '../db/mint/launch-event-store';
import { createLiveStore } from '../db/mint/live-store';
import { createMarketSimulator } from '../ingest/simulator/market-simulator';
import { createApp, API_SPEC_PATH } from '../api/app';
import { createPriceStore } from '../db/market/price-store';
import { migrateToLatest } from '../db/migrate';
import { WSOL_MINT } from '../domain/market/native-coin';
import { createDb } from '../platform/db';
import { createLogger } from '../platform/logger';
import { createMetrics } from '../platform/metrics';
import { ensureDatabase, startLocalPostgres } from './lib/local-postgres';

/**
 * `npm run fuzz`: schemathesis against the running API over every operation in openapi.yaml.
 * Live operations get every check (no 5xx, responses conform, invalid input → 422, valid input accepted).
 * Operations whose capability is not built yet answer a documented 501, so for them the 5xx and
 * acceptance checks are skipped while conformance and invalid-input rejection still apply.
 */
const root = path.resolve(__dirname, '..');
const FUZZ_PG_PORT = Number(process.env.TEST_PG_PORT ?? 54339);

async function main() {
  const pg = await startLocalPostgres(path.join(root, '.data'), 'test', FUZZ_PG_PORT);
  await ensureDatabase(pg.url('postgres'), 'launchpad_fuzz');
  const db = createDb(pg.url('launchpad_fuzz'), 5);
  await migrateToLatest(db);
  // A running system has a cached price, a market and a live snapshot; without them the documented 503s
  // ("not built yet") would be all the fuzzer sees. Ten simulated minutes, written as ingestion writes them.
  const now = Date.now();
  await createPriceStore(db).recordQuote({ symbol: 'SOL', mint: WSOL_MINT, usd: 81.63, source: 'jupiter-price-v3', fetchedAt: new Date(now) });
  await createLaunchEventStore(db).writeBatch([...createMarketSimulator({ seed: 1, launchesPerSecond: 0.3 }).events(now - 600_000, now)]);
  await createLiveProjector({ liveStore: createLiveStore(db), priceStore: createPriceStore(db), liveWindowS: 300, liveMaxEntries: 500, refreshIntervalS: 2, now: () => new Date(now) }).refreshLiveSnapshot();
  const app = createApp(
    buildApiDeps(db, {
      log: createLogger('error', 'api-fuzz'),
      metrics: createMetrics('api-fuzz'),
      validateResponses: true,
      version: 'fuzz',
      heartbeatIntervalS: 15,
      watchdogIntervalS: 60,
      priceRefreshIntervalS: 300,
      expectedDaemons: ['api', 'worker'],
      // A throwaway treasury: fuzzing creates payment intents (and their keys) that nobody pays; no Temporal here,
      // so their workflows are left to an outbox sweep that never runs.
      billing: { treasury: bs58.encode(randomBytes(32)) },
    }),
  );
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const doc = YAML.parse(fs.readFileSync(API_SPEC_PATH, 'utf8')) as { paths: Record<string, Record<string, { operationId: string; 'x-capability'?: string }>> };
  const ops = Object.values(doc.paths).flatMap((p) => Object.values(p));
  const live = ops.filter((o) => !o['x-capability']).map((o) => o.operationId);
  const planned = ops.filter((o) => o['x-capability']).map((o) => o.operationId);

  const st = path.join(root, '.cache', 'venv', 'bin', 'schemathesis');
  // One worker: two hit a thread-safety error inside schemathesis 4.32's generator.
  const common = ['run', API_SPEC_PATH, '--url', url, '--workers', '1'];
  let failed = false;
  const runSt = (label: string, args: string[]) =>
    new Promise<number>((resolve) => {
      console.log(`\n• schemathesis: ${label}`);
      const child = spawn(st, [...common, ...args], { stdio: ['ignore', 'pipe', 'inherit'], cwd: root });
      // schemathesis closes with pytest-style "==== … in 12.3s ====" banners, which CI log readers take for
      // a (zero-test) pytest summary; the report is printed whole, with those rules drawn in dashes instead.
      child.stdout.on('data', (chunk: Buffer) => process.stdout.write(chunk.toString().replace(/={3,}/g, (m) => '-'.repeat(m.length))));
      child.on('exit', (code) => resolve(code ?? 1));
    });
  if ((await runSt(`${live.length} live operations, every check`, [...live.flatMap((id) => ['--include-operation-id', id]), '--checks', 'all', '--exclude-checks', 'ignored_auth'])) !== 0) failed = true;
  if (planned.length) {
    const code = await runSt(`${planned.length} operations not built yet (documented 501)`, [
      ...planned.flatMap((id) => ['--include-operation-id', id]),
      '--checks',
      'all',
      '--exclude-checks',
      'not_a_server_error,positive_data_acceptance,ignored_auth,use_after_free,ensure_resource_availability',
    ]);
    if (code !== 0) failed = true;
  }

  server.close();
  server.closeAllConnections();
  await db.destroy();
  if (pg.startedHere) await pg.stop();
  console.log(failed ? 'fuzz: schemathesis found problems' : 'fuzz: schemathesis found nothing');
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
