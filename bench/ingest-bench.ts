import fs from 'node:fs';
import path from 'node:path';
import { createMarketSimulator } from '../ingest/simulator/market-simulator';
import { writeReplayFile } from '../ingest/replay/replay-format';
import { freshBenchDatabase } from './lib/bench-db';
import { freePort, startLocalTemporal } from '../scripts/lib/local-temporal';
import { sleep, waitFor } from '../scripts/lib/run';
import { startDaemon } from '../scripts/lib/daemon-process';
import { machineLine } from './lib/load';
import { quantiles, peakRss, type ProcessGroup } from './lib/process-stats';
import type { KnexDb } from '../db/knex-handle';

/**
 * `npm run bench:ingest [-- minutes [launchesPerS [tradeIntensity]]]`: the whole pipeline on this machine under
 * about five times the launchpad's record day. A simulated market (4 launches/s; trade intensity 3 gives about
 * 400 trades/s once mints accumulate) is written to a replay file, then the real daemons run as separate
 * processes — ingest (replaying at real time), worker, API — against a local Postgres and a Temporal dev server.
 * Prints events/s, events lost, lateness of the 30 s and 60 s scores, live-list staleness and peak memory.
 */
const MINUTES = Number(process.argv[2] ?? 10);
const LAUNCHES_PER_S = Number(process.argv[3] ?? 4);
const TRADE_INTENSITY = Number(process.argv[4] ?? 3);
const SEED = 2026;
const root = path.resolve(__dirname, '..');
const work = path.join(root, '.cache', 'bench');
const DB = 'launchpad_bench_ingest';

async function main() {
  fs.mkdirSync(work, { recursive: true });
  const replayFile = path.join(work, `ingest-${SEED}-${LAUNCHES_PER_S}-${TRADE_INTENSITY}-${MINUTES}m.jsonl`);
  if (!fs.existsSync(replayFile)) {
    const sim = createMarketSimulator({ seed: SEED, launchesPerSecond: LAUNCHES_PER_S, tradeIntensity: TRADE_INTENSITY, graduationShare: 0.02 });
    const start = Date.UTC(2026, 0, 1);
    await writeReplayFile(replayFile + '.tmp', sim.events(start, start + MINUTES * 60_000));
    fs.renameSync(replayFile + '.tmp', replayFile);
  }
  const expected = countEvents(replayFile);
  console.log(
    `replay file: ${expected.total} events (${expected.create} launches, ${expected.trade} trades, ${expected.complete} completions) over ${MINUTES} min`,
  );

  const bench = await freshBenchDatabase(DB);
  const { db } = bench;

  const temporalDb = path.join(work, 'temporal-ingest-bench.db');
  fs.rmSync(temporalDb, { force: true });
  const temporal = await startLocalTemporal({ port: await freePort(), dbFile: temporalDb, logFile: path.join(work, 'temporal.log') });
  const apiPort = await freePort();
  const env = {
    DATABASE_URL: bench.url,
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_TASK_QUEUE: 'bench-ingest',
    WORKER_METRICS_PORT: '0',
    API_PORT: String(apiPort),
    NODE_ENV: 'production',
    DEMO_MODE: 'true',
    PRICE_SOURCE_URL: 'http://127.0.0.1:9/unreachable',
    EXPECTED_DAEMONS: 'api,worker,ingest',
  };
  const worker = startDaemon('workers/main-worker.ts', env);
  const api = startDaemon('api/server.ts', env);
  await waitFor('the API', async () => (await fetch(`http://127.0.0.1:${apiPort}/api/health`)).status < 500, 60_000);
  await waitFor('the worker', async () => !!(await db('daemon_heartbeats').where({ name: 'worker' }).first()), 60_000);

  const groups: ProcessGroup[] = [
    { name: 'ingest', pids: () => [ingestPid()] },
    { name: 'worker', pids: () => [worker.child.pid!] },
    { name: 'api', pids: () => [api.child.pid!] },
    { name: 'temporal', pids: () => [temporal.process!.pid!] },
    { name: 'postgres', pids: () => postgresPids(bench.dataDir) },
  ];
  const started = Date.now();
  const ingest = startDaemon('ingest/main-ingest.ts', { ...env, INGEST_FEEDS: 'replay', REPLAY_FILE: replayFile, REPLAY_SPEED: '1' });
  const ingestPid = () => ingest.child.pid!;
  const staleness: number[] = [];
  const peaks = new Map<string, number>();
  const progressEvery = 60_000;
  let nextProgress = started + progressEvery;
  const replayEnd = started + MINUTES * 60_000;
  const deadline = replayEnd + 180_000;

  // Until every event of the file is durable (or the deadline), then the last launches' 60 s scores.
  for (;;) {
    const live = await fetch(`http://127.0.0.1:${apiPort}/api/live`).catch(() => null);
    if (live?.ok) staleness.push((Date.now() - Date.parse(((await live.json()) as { generated_at: string }).generated_at)) / 1000);
    for (const g of groups) peaks.set(g.name, Math.max(peaks.get(g.name) ?? 0, peakRss(g.pids())));
    // Counting the trades table is a scan of the very database being measured: once a minute for progress, and
    // every second only once the replay should have delivered everything.
    const replayOver = Date.now() >= replayEnd;
    if (Date.now() > nextProgress || replayOver) {
      const stored = await storedCounts(db);
      if (Date.now() > nextProgress) {
        nextProgress += progressEvery;
        console.log(
          `  ${Math.round((Date.now() - started) / 1000)} s: ${stored.trade} / ${expected.trade} trades, ${stored.create} / ${expected.create} launches durable`,
        );
      }
      if ((stored.trade >= expected.trade && stored.create >= expected.create) || Date.now() > deadline) break;
    }
    await sleep(1000);
  }
  const ingestDoneS = (Date.now() - started) / 1000;
  await sleep(65_000);
  for (const g of groups) peaks.set(g.name, Math.max(peaks.get(g.name) ?? 0, peakRss(g.pids())));

  const stored = await storedCounts(db);
  const lateness = await scoreLateness(db);
  const launchLag = (await db.raw(`SELECT extract(epoch FROM ingested_at - created_at)::float AS s FROM mints`)).rows.map((r: { s: number }) => r.s);
  await ingest.kill();
  await worker.kill();
  await api.kill();
  await db.destroy();
  await temporal.stop();
  await bench.stop();

  const lost = expected.trade - stored.trade + (expected.create - stored.create) + (expected.complete - stored.complete);
  console.log(`\nbench:ingest — ${machineLine()}; all processes on this machine`);
  console.log(`market: ${LAUNCHES_PER_S} launches/s, trade intensity ${TRADE_INTENSITY}, ${MINUTES} min replayed at real time`);
  console.log('| figure | value |\n|---|---|');
  const row = (k: string, v: string) => console.log(`| ${k} | ${v} |`);
  row(
    'events in the replay',
    `${expected.total} (${(expected.trade / (MINUTES * 60)).toFixed(0)} trades/s, ${(expected.create / (MINUTES * 60)).toFixed(2)} launches/s)`,
  );
  row(
    'events durable',
    `${stored.trade + stored.create + stored.complete} in ${ingestDoneS.toFixed(0)} s → ${((stored.trade + stored.create + stored.complete) / ingestDoneS).toFixed(0)} events/s`,
  );
  row('events lost', String(lost));
  row('launch ingest lag p50 / p99', `${fmt(quantiles(launchLag, 0.5))} / ${fmt(quantiles(launchLag, 0.99))} s`);
  for (const [bucket, xs] of Object.entries(lateness.byBucket)) {
    row(
      `${bucket} s score lateness p50 / p99 / max`,
      `${fmt(quantiles(xs, 0.5))} / ${fmt(quantiles(xs, 0.99))} / ${fmt(Math.max(...xs))} s (n = ${xs.length})`,
    );
  }
  row('non-mayhem launches without both scores', String(lateness.missing));
  row(
    'live-list staleness p50 / p99 / max',
    `${fmt(quantiles(staleness, 0.5))} / ${fmt(quantiles(staleness, 0.99))} / ${fmt(Math.max(...staleness))} s (n = ${staleness.length})`,
  );
  for (const [name, kb] of peaks) row(`peak RSS ${name}`, `${(kb / 1024).toFixed(0)} MiB`);
  if (lost !== 0) process.exitCode = 1;
}

const fmt = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : 'n/a');

function countEvents(file: string) {
  const c = { create: 0, trade: 0, complete: 0, total: 0 };
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const m = /"kind":"(create|trade|complete|migrate)"/.exec(line);
    if (!m) continue;
    c.total++;
    if (m[1] === 'create') c.create++;
    else if (m[1] === 'trade') c.trade++;
    else if (m[1] === 'complete') c.complete++;
  }
  return c;
}

async function storedCounts(db: KnexDb) {
  const r = await db.raw(
    `SELECT (SELECT count(*) FROM trades) AS trade, (SELECT count(*) FROM mints) AS create, (SELECT count(*) FROM mint_graduations WHERE completed_at IS NOT NULL) AS complete`,
  );
  return r.rows[0] as { trade: number; create: number; complete: number };
}

/** Seconds between a score's due time (creation + bucket) and the moment its prediction row was written. */
async function scoreLateness(db: KnexDb) {
  const rows = (
    await db.raw(`SELECT p.age_bucket, extract(epoch FROM p.predicted_at - (m.created_at + make_interval(secs => p.age_bucket)))::float AS late
                    FROM predictions p JOIN mints m USING (mint)`)
  ).rows as { age_bucket: number; late: number }[];
  const byBucket: Record<string, number[]> = {};
  for (const r of rows) (byBucket[r.age_bucket] ??= []).push(r.late);
  const missing = Number(
    (await db.raw(`SELECT count(*) AS n FROM mints m WHERE NOT m.mayhem AND (SELECT count(*) FROM predictions p WHERE p.mint = m.mint) < 2`)).rows[0].n,
  );
  return { byBucket, missing };
}

function postgresPids(dataDir: string): number[] {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return [];
  const master = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  const children = fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return Number(fs.readFileSync(`/proc/${d}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]) === master;
      } catch {
        return false;
      }
    })
    .map(Number);
  return [master, ...children];
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
