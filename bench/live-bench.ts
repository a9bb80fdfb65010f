import { createLiveTick } from '../activities';
import { createApiKeyStore } from '../db/access/api-key-store';
import { createPriceStore } from '../db/market/price-store';
import { createLaunchEventStore } from '../db/mint/launch-event-store';
import { WSOL_MINT } from '../domain/market/native-coin';
import { loadConfig } from '../platform/config';
import { createLogger } from '../platform/logger';
import { createMarketSimulator } from '../ingest/simulator/market-simulator';
import { freshBenchDatabase } from './lib/bench-db';
import { freePort } from '../scripts/lib/local-temporal';
import { machineLine, measure, type LoadResult, spawnApi } from './lib/load';

/**
 * `npm run bench:live [-- seconds]`: requests/s and p99 of the live list with 500 live mints, as production
 * serves it (response validation off): `/api/live` (pre-serialized bytes), `/api/v1/live` at its default and
 * largest limit, and a `min_prob` filter (keyed routes with an Enterprise key: authenticated and quota-counted). The market is the simulator's, written as ingestion writes it, and the
 * snapshot is the projector's own.
 */
const DURATION_S = Number(process.argv[2] ?? 8);
const CONNECTIONS = 16;
const DB = 'launchpad_bench_live';
const ROUTES = ['/api/live', '/api/v1/live', '/api/v1/live?limit=200', '/api/v1/live?limit=200&min_prob=0.5'];
/** Dashboards and HTTP libraries ask for gzip; a bare client does not. Both are measured. */
const ENCODINGS: Record<string, Record<string, string>> = { identity: {}, gzip: { 'accept-encoding': 'gzip' } };

async function main() {
  const bench = await freshBenchDatabase(DB);
  const { db } = bench;

  // Five minutes of a busy market (2.5 launches/s) leaves more than 500 non-mayhem mints in the live window.
  const now = Date.now();
  const events = [...createMarketSimulator({ seed: 5, launchesPerSecond: 2.5 }).events(now - 300_000, now)];
  for (let i = 0; i < events.length; i += 5000) await createLaunchEventStore(db).writeBatch(events.slice(i, i + 5000));
  await createPriceStore(db).recordQuote({ symbol: 'SOL', mint: WSOL_MINT, usd: 80, source: 'jupiter-price-v3', fetchedAt: new Date(now) });
  const projector = createLiveTick({ cfg: loadConfig({}), db, log: createLogger('silent', 'bench'), now: () => new Date(now) });
  const { tracked } = await projector.refreshLiveSnapshot();
  // Keyed routes are measured as production serves them: authenticated and quota-counted.
  const key = await createApiKeyStore(db).issueKey({ tier: 'enterprise', customDailyQuota: 1_000_000_000, source: 'admin' });
  await db.destroy();

  // The snapshot is built once and served for the whole run: it must not turn stale (and be re-serialised) midway.
  const api = await spawnApi(bench.url, await freePort(), { VALIDATE_RESPONSES: 'false', LOG_LEVEL: 'warn', LIVE_STALE_AFTER_S: '3600' });
  const bytes = (await (await fetch(`${api.base}/api/live`)).arrayBuffer()).byteLength;
  const results: [string, string, LoadResult][] = [];
  for (const [encoding, headers] of Object.entries(ENCODINGS)) {
    for (const route of ROUTES) {
      const auth: Record<string, string> = route.startsWith('/api/v1/') ? { 'x-api-key': key.plaintext } : {};
      results.push([route, encoding, await measure(api.base + route, { connections: CONNECTIONS, durationS: DURATION_S, headers: { ...headers, ...auth } })]);
    }
  }
  await api.stop();
  await bench.stop();

  console.log(
    `\nbench:live — ${machineLine()}, ${tracked} live mints (/api/live body ${(bytes / 1024).toFixed(0)} KiB), ${CONNECTIONS} connections, ${DURATION_S}s per route, loopback`,
  );
  console.log('| route | encoding | req/s | p50 ms | p99 ms | statuses |\n|---|---|---|---|---|---|');
  for (const [route, encoding, x] of results) console.log(`| ${route} | ${encoding} | ${x.rps} | ${x.p50} | ${x.p99} | ${x.status} |`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
