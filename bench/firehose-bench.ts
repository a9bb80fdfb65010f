import path from 'node:path';
import WebSocket from 'ws';
import { createApiKeyStore } from '../db/access/api-key-store';
import { createLiveStore, LIVE_SNAPSHOT } from '../db/live/live-store';
import { createPredictionStore } from '../db/mint/prediction-store';
import { startDaemon } from '../scripts/lib/daemon-process';
import { freePort } from '../scripts/lib/local-temporal';
import { waitFor } from '../scripts/lib/run';
import { freshBenchDatabase } from './lib/bench-db';
import { cpuSeconds, machineNow, postgresCpuSeconds, rssMiB } from './lib/proc-stat';

/**
 * `npm run bench:firehose [-- seconds clients launchesPerS]`: N websocket clients on the Enterprise firehose of a
 * real API process (production settings) while synthetic writes to the source tables run at a launch rate: two
 * scores per launch (the 30 s and 60 s predictions, through the prediction store) and the live list rewritten every
 * 2 s with the launches of those 2 s entering and as many leaving (500 entries). Reports the API process's CPU and
 * memory, the push lag (client receipt − the event's append time, same clock), and whether every client got every
 * event in order.
 */
const DURATION_S = Number(process.argv[2] ?? 30);
const CLIENTS = Number(process.argv[3] ?? 1000);
const LAUNCHES_PER_S = Number(process.argv[4] ?? 4);
const LIVE_REFRESH_MS = 2000;
const LIVE_SIZE = 500;
const DB = 'launchpad_bench_firehose';

type ClientStats = { events: number; lastSeq: number; outOfOrder: number; closed: number | undefined };

async function main() {
  const bench = await freshBenchDatabase(DB);
  const { db } = bench;
  const key = await createApiKeyStore(db).issueKey({ tier: 'enterprise', customDailyQuota: 1_000_000_000, source: 'admin' });
  const port = await freePort();
  const api = startDaemon(path.join('api', 'server.ts'), {
    DATABASE_URL: bench.url,
    API_PORT: String(port),
    NODE_ENV: 'production',
    DEMO_MODE: 'true',
    API_PROCESSES: '1',
    LOG_LEVEL: 'warn',
    FIREHOSE_MAX_PER_KEY: String(CLIENTS),
    FIREHOSE_MAX_CONNECTIONS: String(CLIENTS),
  });
  const base = `http://127.0.0.1:${port}`;
  await waitFor('bench API', async () => (await fetch(`${base}/api/health`)).status < 500, 120_000).catch((e) => {
    throw new Error(`${(e as Error).message}\n${api.output()}`);
  });
  const pid = api.child.pid!;
  apiOutput = api.output;

  // Connect in batches, as a fleet of clients reconnecting after a deploy would.
  const lags: number[] = [];
  const stats: ClientStats[] = [];
  const sockets: WebSocket[] = [];
  let retries = 0;
  const open = (s: ClientStats, attempt = 0): Promise<void> => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/v1/firehose`, { headers: { 'X-API-Key': key.plaintext } });
    ws.on('message', (m) => {
      const f = JSON.parse(String(m));
      if (f.type !== 'event') return;
      lags.push(Date.now() - Date.parse(f.at));
      if (s.lastSeq && f.seq !== s.lastSeq + 1) s.outOfOrder++;
      s.lastSeq = f.seq;
      s.events++;
    });
    return new Promise<void>((resolve, reject) => {
      ws.once('message', () => {
        sockets.push(ws);
        ws.on('close', (code) => (s.closed = code));
        resolve();
      });
      // A refused or reset handshake is tried again (counted): the figure is for clients that are connected.
      ws.once('error', (err) => {
        if (attempt >= 3) return reject(err);
        retries++;
        setTimeout(() => open(s, attempt + 1).then(resolve, reject), 200);
      });
    });
  };
  const connect0 = Date.now();
  for (let i = 0; i < CLIENTS; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, CLIENTS - i) }, () => {
        const s: ClientStats = { events: 0, lastSeq: 0, outOfOrder: 0, closed: undefined };
        stats.push(s);
        return open(s);
      }),
    );
  }
  const connectS = (Date.now() - connect0) / 1000;
  const rssConnected = rssMiB(pid);

  // The writers: scores at the launch rate (two per launch), and the live list's refresh.
  const predictions = createPredictionStore(db);
  const live = createLiveStore(db);
  let launch = 0;
  let written = 0;
  const listed: string[] = Array.from({ length: LIVE_SIZE }, (_, i) => `BenchSeed${i}pump`);
  const score = async (mint: string, ageBucket: number) => {
    const now = new Date();
    await predictions.insertOnce({
      mint,
      ageBucket,
      asOf: now,
      predictedAt: now,
      gradProb: Math.random(),
      rawProb: 0.5,
      modelVersion: 'bench',
      features: {},
      calibration: {},
      priceSol: 3e-8,
      rugProb: 0.1,
      runnerOdds: { '2x': 0.3, '3x': 0.2, '5x': 0.1, '10x': 0.05, '20x': 0.01 },
      survivalProb: null,
      modelVersions: {},
      rugFeatures: {},
      context: {},
    });
    written++;
  };
  const body = () => JSON.stringify({ count: listed.length, mints: listed.map((mint, i) => ({ mint, grad_prob: 1 - i / LIVE_SIZE })) });
  await live.writeSnapshot(LIVE_SNAPSHOT, body(), listed.length, new Date());
  await new Promise((r) => setTimeout(r, 1000));
  lags.length = 0;
  for (const s of stats) s.events = 0;
  const startSeq = Number((await db('firehose_events').max('seq as s').first())?.s ?? 0);

  const cpu0 = cpuSeconds(pid);
  const pg0 = postgresCpuSeconds(bench.dataDir);
  const t0 = Date.now();
  let rssPeak = rssMiB(pid);
  let liveWrites = 0;
  const scoreTimer = setInterval(() => {
    const mint = `BenchMint${launch++}pump`;
    void score(mint, 30).then(() => score(mint, 60));
    listed.unshift(mint);
  }, 1000 / LAUNCHES_PER_S);
  const liveTimer = setInterval(() => {
    listed.length = LIVE_SIZE;
    void live.writeSnapshot(LIVE_SNAPSHOT, body(), listed.length, new Date()).then(() => liveWrites++);
  }, LIVE_REFRESH_MS);
  const rssTimer = setInterval(() => (rssPeak = Math.max(rssPeak, rssMiB(pid))), 500);
  await new Promise((r) => setTimeout(r, DURATION_S * 1000));
  clearInterval(scoreTimer);
  clearInterval(liveTimer);
  const wallS = (Date.now() - t0) / 1000;
  const cpuS = cpuSeconds(pid) - cpu0;
  const pgS = postgresCpuSeconds(bench.dataDir) - pg0;
  // Drain: what was written by now reaches every client.
  await new Promise((r) => setTimeout(r, 3000));
  clearInterval(rssTimer);
  const expected = Number((await db('firehose_events').where('seq', '>', startSeq).count('* as n').first())?.n ?? 0);

  const counts = stats.map((s) => s.events).sort((a, b) => a - b);
  lags.sort((a, b) => a - b);
  const q = (p: number) => lags[Math.min(lags.length - 1, Math.floor(p * lags.length))] ?? NaN;
  const m = machineNow();
  const closedClients = stats.filter((s) => s.closed !== undefined).length;
  for (const ws of sockets) ws.terminate();
  await api.kill();
  await db.destroy();
  await bench.stop();

  console.log(`\nbench:firehose — ${m.cores} cores (${m.cpu}), ${m.memGiB} GiB, load ${m.load}; 1 API process (NODE_ENV=production), loopback`);
  console.log(`${CLIENTS} clients, ${LAUNCHES_PER_S} launches/s for ${wallS.toFixed(1)} s: ${written} scores and ${liveWrites} live-list refreshes written`);
  console.log('| figure | value |\n|---|---|');
  console.log(`| events per client (min / max; appended: ${expected}) | ${counts[0]} / ${counts[counts.length - 1]} |`);
  console.log(`| frames pushed | ${lags.length} (${Math.round(lags.length / wallS)}/s) |`);
  console.log(
    `| out-of-order or skipped seqs, clients closed by the server, handshakes retried | ${stats.reduce((n, s) => n + s.outOfOrder, 0)}, ${closedClients}, ${retries} |`,
  );
  console.log(`| push lag p50 / p99 / max (ms, append → client) | ${q(0.5)} / ${q(0.99)} / ${lags[lags.length - 1]} |`);
  console.log(`| API process CPU | ${((cpuS / wallS) * 100).toFixed(1)} % of one core (${cpuS.toFixed(2)} s) |`);
  console.log(`| Postgres CPU (all backends) | ${((pgS / wallS) * 100).toFixed(1)} % of one core |`);
  console.log(`| API RSS connected idle / peak | ${rssConnected.toFixed(0)} / ${rssPeak.toFixed(0)} MiB |`);
  console.log(`| ${CLIENTS} clients connected (key check and lease each, 50 at a time) in | ${connectS.toFixed(1)} s |`);
}

let apiOutput = () => '';
main().catch((e) => {
  console.error(e, apiOutput());
  process.exit(1);
});
