import os from 'node:os';
import autocannon from 'autocannon';
import { mintActivities } from '../activities/mint';
import { createLiveConsumers } from '../activities/live/live-consumers';
import { createReadPorts } from '../db/read-ports';
import { walletsActivities } from '../activities/wallets';
import { createApiKeyStore } from '../db/access/api-key-store';
import { createLaunchEventStore } from '../db/mint/launch-event-store';
import { createWalletReadStore } from '../db/wallets/wallet-read-store';
import { percentile } from '../domain/ops/latency-window';
import { DEFAULT_MIN_TOTAL, LEADERBOARD_KINDS, leaderboardSql } from '../domain/wallets/leaderboards';
import { SMART_V1 } from '../domain/wallets/smart-score';
import { parseWalletAddress, parseWalletPrefix, type WalletKey } from '../domain/wallets/wallet-address';
import { publicKey } from '../ingest/simulator/address-book';
import { SeededRandom } from '../ingest/simulator/seeded-random';
import { loadConfig } from '../platform/config';
import { createLogger } from '../platform/logger';
import { freePort } from '../scripts/lib/local-temporal';
import { freshBenchDatabase } from './lib/bench-db';
import { machineLine, spawnApi } from './lib/load';
import { fillWalletRecords, generatedLaunch } from './lib/wallet-index-fill';
import type { KnexDb } from '../db/knex-handle';

/**
 * `npm run bench:wallets [-- sizes [seconds]]` (default `1000000,5000000 5`): the wallet index at each size of
 * generated records. Per size: table and index sizes; each leaderboard's SQL at limit=200 straight on Postgres
 * (p50/p99 over 40 runs, and whether its plan scans or sorts); one mint's resolution applied to 300 buyers, 250 of
 * them indexed (wallets touched, ms, 20 mints); then through HTTP against the API as its own process with its own
 * caches (response validation off, as in production): lookups by full address (keyed) and by 12-character prefix
 * (public), random wallets each request, and each leaderboard kind at limit=200.
 */
const SIZES = (process.argv[2] ?? '1000000,5000000').split(',').map(Number);
const DURATION_S = Number(process.argv[3] ?? 5);
const CONNECTIONS = 8;
const DB = 'launchpad_bench_wallets';
const ms = (x: number | null) => (x === null ? '-' : x.toFixed(2));
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

async function timed(runs: number, f: () => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  const t: number[] = [];
  for (let i = 0; i < runs; i++) {
    const s = performance.now();
    await f();
    t.push(performance.now() - s);
  }
  t.sort((a, b) => a - b);
  return { p50: percentile(t, 50)!, p99: percentile(t, 99)! };
}

/** Node types of a plan that read a whole relation or sort it: the leaderboards must have neither. */
function scanning(plan: any, out: string[] = []): string[] {
  if (['Seq Scan', 'Sort', 'Incremental Sort', 'Bitmap Heap Scan'].includes(plan['Node Type'])) out.push(plan['Node Type']);
  for (const p of plan.Plans ?? []) scanning(p, out);
  return out;
}

async function sizes(db: KnexDb): Promise<(readonly [string, number])[]> {
  const r = await db.raw(
    `SELECT c.relname, pg_relation_size(c.oid) AS bytes FROM pg_class c
     WHERE c.relname = 'wallet_records' OR c.oid IN (SELECT indexrelid FROM pg_index WHERE indrelid = 'wallet_records'::regclass) ORDER BY c.relname`,
  );
  return r.rows.map((x: { relname: string; bytes: string }) => [x.relname, Number(x.bytes)] as const);
}

async function resolutionCost(db: KnexDb, rng: SeededRandom, known: readonly string[]) {
  const now = Date.now();
  const cfg = loadConfig({});
  const ctx = {
    cfg,
    db,
    log: createLogger('silent', 'bench'),
    now: () => new Date(now),
    liveConsumers: createLiveConsumers(),
    readPorts: createReadPorts(db, cfg),
  };
  const mint = mintActivities.create(ctx, { dexPriceSourceName: 'bench' });
  const wallets = walletsActivities.create(ctx);
  const t: number[] = [];
  let touched = 0;
  let added = 0;
  for (let i = 0; i < 20; i++) {
    const buyers = [...Array.from({ length: 250 }, () => known[rng.int(0, known.length)]!), ...Array.from({ length: 50 }, () => publicKey(rng))];
    const created = now - 25 * 3_600_000 - i * 60_000;
    const events = generatedLaunch(rng, created, [...new Set(buyers)]);
    await createLaunchEventStore(db).writeBatch(events);
    const horizonAt = new Date(created + 24 * 3_600_000).toISOString();
    await mint.resolveMint({ mint: events[0]!.mint, horizonAt });
    const s = performance.now();
    const r = await wallets.applyWalletContributions({ mint: events[0]!.mint, horizonAt });
    t.push(performance.now() - s);
    touched += r.walletsChanged;
    added += r.walletsAdded;
  }
  t.sort((a, b) => a - b);
  return { touched: touched / 20, added: added / 20, p50: percentile(t, 50)!, p99: percentile(t, 99)! };
}

async function http(url: string, paths: () => string, headers: Record<string, string>) {
  const run = (connections: number, duration: number) =>
    autocannon({ url, connections, duration, headers, requests: [{ setupRequest: (req: any) => ({ ...req, path: paths() }) }] });
  await run(2, 1);
  // One client alone gives the latency a caller sees; 8 at once the throughput, where p99 is mostly queueing.
  const one = await run(1, DURATION_S);
  const r = await run(CONNECTIONS, DURATION_S);
  const status = Object.entries({ ...one.statusCodeStats, ...r.statusCodeStats })
    .map(([code]) => `${code}×${((one.statusCodeStats as any)?.[code]?.count ?? 0) + ((r.statusCodeStats as any)?.[code]?.count ?? 0)}`)
    .join(' ');
  return { oneP50: one.latency.p50, oneP99: one.latency.p99, rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, status };
}

async function measureSize(n: number) {
  const rng = new SeededRandom(n);
  const bench = await freshBenchDatabase(DB);
  const { db } = bench;
  const started = performance.now();
  const sample = await fillWalletRecords(db, n, rng);
  const fillS = (performance.now() - started) / 1000;
  const relations = await sizes(db);
  const smart = (
    await db.raw(`SELECT count(*) FILTER (WHERE total >= 8) AS ranked, count(*) FILTER (WHERE 10 * fast_snipes >= 7 * total) AS snipers FROM wallet_records`)
  ).rows[0];

  const sql: string[] = [];
  const reads = createWalletReadStore(db);
  for (const kind of LEADERBOARD_KINDS) {
    for (const minTotal of [DEFAULT_MIN_TOTAL, 1]) {
      const text = leaderboardSql(kind, minTotal, SMART_V1);
      const literal = text.replaceAll('$1', String(minTotal)).replaceAll('$2', '200');
      const [plan] = (await db.raw(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${literal}`)).rows[0]['QUERY PLAN'];
      const scans = scanning(plan.Plan);
      const server = `${Number(plan['Execution Time']).toFixed(2)} ms server, ${plan.Plan['Shared Hit Blocks'] + plan.Plan['Shared Read Blocks']} blocks`;
      // The API's own read (a named prepared statement), so a generic plan is measured as production runs it.
      const q = await timed(40, () => reads.leaderboard(kind, minTotal, 200, SMART_V1));
      sql.push(
        `| ${kind} | ${minTotal} | ${ms(q.p50)} | ${ms(q.p99)} | ${scans.length ? `scans (${scans.join(', ')})` : 'index walk, no scan or sort'} (${server}) |`,
      );
    }
  }
  // Lookups through the API's own read (rank, creator record joined), random wallets of the sample.
  const keyAt = (i: number) => sample[(i * 7919) % sample.length]!;
  let i = 0;
  const lookups: string[] = [];
  for (const [kind, key] of [
    ['full address', (w: string) => parseWalletAddress(w) as WalletKey],
    ['12-char prefix', (w: string) => parseWalletPrefix(w.slice(0, 12)) as WalletKey],
  ] as const) {
    const q = await timed(400, () => reads.byKey(key(keyAt(i++)), SMART_V1));
    const w = keyAt(i++);
    const where = kind === 'full address' ? `wallet = '${w}'` : `wallet >= '${w.slice(0, 12)}' AND wallet < '${w.slice(0, 12)}{'`;
    const [plan] = (await db.raw(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) SELECT * FROM wallet_records WHERE ${where}`)).rows[0]['QUERY PLAN'];
    lookups.push(
      `| ${kind} | ${ms(q.p50)} | ${ms(q.p99)} | ${plan.Plan['Node Type']} on ${plan.Plan['Index Name']} (${Number(plan['Execution Time']).toFixed(3)} ms server) |`,
    );
  }
  const resolution = await resolutionCost(db, rng, sample);
  const key = await createApiKeyStore(db).issueKey({ tier: 'enterprise', customDailyQuota: 1_000_000_000, source: 'admin' });
  await db.destroy();

  const api = await spawnApi(bench.url, await freePort(), { VALIDATE_RESPONSES: 'false', LOG_LEVEL: 'warn' });
  const pick = () => sample[Math.floor(Math.random() * sample.length)]!;
  const auth = { 'x-api-key': key.plaintext };
  const routes: [string, () => string, Record<string, string>][] = [
    // The machine's floor: a trivial route (two one-row reads), measured in the same conditions.
    ['/api/health (two one-row Postgres reads: the floor of this machine now)', () => '/api/health', {}],
    ['/api/v1/wallet/{address} (random full address, keyed)', () => `/api/v1/wallet/${pick()}`, auth],
    ['/api/wallet/{short} (random 12-char prefix, public)', () => `/api/wallet/${pick().slice(0, 12)}`, {}],
    ...LEADERBOARD_KINDS.map((k): [string, () => string, Record<string, string>] => [
      `/api/v1/wallets/leaderboard?kind=${k}&limit=200`,
      () => `/api/v1/wallets/leaderboard?kind=${k}&limit=200`,
      auth,
    ]),
  ];
  const results: string[] = [];
  for (const [name, paths, headers] of routes) {
    const x = await http(api.base, paths, headers);
    results.push(`| ${name} | ${x.oneP50} / ${x.oneP99} | ${x.rps} | ${x.p50} / ${x.p99} | ${x.status} |`);
  }
  await api.stop();
  await bench.stop();

  console.log(
    `\n### ${n.toLocaleString('en-US')} wallets (${Number(smart.ranked).toLocaleString('en-US')} with total ≥ 8, ${Number(smart.snipers).toLocaleString('en-US')} snipers; generated and indexed in ${fillS.toFixed(0)} s)\n`,
  );
  console.log('| relation | size |\n|---|---|');
  for (const [rel, bytes] of relations) console.log(`| ${rel} | ${mb(bytes)} |`);
  console.log(`| total (table + indexes) | ${mb(relations.reduce((s, [, b]) => s + b, 0))} |`);
  console.log("\nLookups through the API's read store, straight on Postgres (400 random wallets):\n\n| key | p50 ms | p99 ms | plan |\n|---|---|---|---|");
  for (const l of lookups) console.log(l);
  console.log('\nLeaderboard SQL at limit=200, straight on Postgres (40 runs):\n\n| kind | min_total | p50 ms | p99 ms | plan |\n|---|---|---|---|---|');
  for (const l of sql) console.log(l);
  console.log(
    `\nOne mint's resolution applied to its 300 buyers (250 indexed, 50 new), applyWalletContributions, 20 mints: ${resolution.touched} wallet records touched (${resolution.added} of them new), p50 ${ms(resolution.p50)} ms, p99 ${ms(resolution.p99)} ms`,
  );
  console.log(
    `\nThrough HTTP (load average ${os.loadavg()[0]!.toFixed(1)}, ${DURATION_S} s per route with 1 connection then ${CONNECTIONS}, loopback, the API's own caches):\n`,
  );
  console.log(
    `| route | 1 connection p50 / p99 ms | ${CONNECTIONS} connections req/s | ${CONNECTIONS} connections p50 / p99 ms | statuses |\n|---|---|---|---|---|`,
  );
  for (const l of results) console.log(l);
}

async function main() {
  console.log(
    `bench:wallets — ${machineLine()}, load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} at start`,
  );
  for (const n of SIZES) await measureSize(n);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
