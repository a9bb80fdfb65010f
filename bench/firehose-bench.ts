import path from 'node:path';
import WebSocket from 'ws';
import { createApiKeyStore } from '../db/access/api-key-store';
import { createLiveStore, LIVE_SNAPSHOT } from '../db/live/live-store';
import { createPredictionStore } from '../db/mint/prediction-store';
import { compileSubscription, frameFacts, type Subscription } from '../domain/firehose/firehose-topics';
import { startDaemon } from '../scripts/lib/daemon-process';
import { freePort } from '../scripts/lib/local-temporal';
import { waitFor } from '../scripts/lib/run';
import { freshBenchDatabase } from './lib/bench-db';
import { cpuSeconds, machineNow, postgresCpuSeconds, rssMiB } from './lib/proc-stat';

/**
 * `npm run bench:firehose [-- seconds clients launchesPerS]`: N websocket clients on the Enterprise firehose of a
 * real API process (production settings) while synthetic writes to the source tables run at a launch rate: two
 * scores per launch (the 30 s and 60 s predictions, through the prediction store) and the live list rewritten every
 * 2 s with the launches of those 2 s entering and as many leaving (500 entries). Two phases in the same run, over
 * the same connections: first every client unsubscribed (every event to every client), then each client on topics
 * of its own (changed on the open connection: a few mints of its own, and for one client in ten a grad_prob
 * threshold). Reports per phase the API process's CPU per delivered frame, the push lag (client receipt − the
 * event's append time, same clock), and whether every client got exactly the events of its topics, in order.
 */
const DURATION_S = Number(process.argv[2] ?? 30);
const CLIENTS = Number(process.argv[3] ?? 1000);
const LAUNCHES_PER_S = Number(process.argv[4] ?? 4);
const LIVE_REFRESH_MS = 2000;
const LIVE_SIZE = 500;
const DB = 'launchpad_bench_firehose';
/** Each client follows the launches whose number is its own modulo this (a few mints per client per phase). */
const MINT_GROUPS = 50;

type ClientStats = { seqs: number[]; outOfOrder: number; closed: number | undefined; subscribed: boolean; ws?: WebSocket; topics: Subscription };

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** Launch n's mint: a valid base58 address, so topics can name it. */
function mintAddress(n: number): string {
  let s = '';
  let x = n;
  do {
    s = B58[x % 58] + s;
    x = Math.floor(x / 58);
  } while (x > 0);
  return `Bench${s}`.padEnd(44, 'z');
}

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
  let lags: number[] = [];
  const stats: ClientStats[] = [];
  let retries = 0;
  const open = (s: ClientStats, attempt = 0): Promise<void> => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/v1/firehose`, { headers: { 'X-API-Key': key.plaintext } });
    ws.on('message', (m) => {
      const f = JSON.parse(String(m));
      if (f.type === 'subscribed') s.subscribed = true;
      if (f.type !== 'event') return;
      lags.push(Date.now() - Date.parse(f.at));
      const last = s.seqs[s.seqs.length - 1];
      if (last !== undefined && f.seq <= last) s.outOfOrder++;
      s.seqs.push(f.seq);
    });
    return new Promise<void>((resolve, reject) => {
      // 1013 (try again later: the database was too busy to take a lease) is retried, as a client would.
      const refused = (code: number, reason: Buffer) =>
        code === 1013 && attempt < 10
          ? (retries++, setTimeout(() => open(s, attempt + 1).then(resolve, reject), 500))
          : reject(new Error(`firehose refused a client: ${code} ${String(reason)}`));
      ws.once('close', refused);
      ws.once('message', () => {
        s.ws = ws;
        ws.off('close', refused);
        ws.on('close', (code) => (s.closed = code));
        resolve();
      });
      // A refused or reset handshake is tried again (counted): the figure is for clients that are connected.
      ws.once('error', (err) => {
        ws.off('close', refused);
        if (attempt >= 10) return reject(err);
        retries++;
        setTimeout(() => open(s, attempt + 1).then(resolve, reject), 200);
      });
    });
  };
  const connect0 = Date.now();
  for (let i = 0; i < CLIENTS; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, CLIENTS - i) }, () => {
        const s: ClientStats = { seqs: [], outOfOrder: 0, closed: undefined, subscribed: false, topics: null };
        stats.push(s);
        return open(s);
      }),
    );
  }
  const connectS = (Date.now() - connect0) / 1000;
  console.error(`${CLIENTS} clients connected in ${connectS.toFixed(1)} s`);
  const rssConnected = rssMiB(pid);

  // The writers: scores at the launch rate (two per launch), and the live list's refresh.
  const predictions = createPredictionStore(db);
  const live = createLiveStore(db);
  let launch = 0;
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
  };
  const body = () => JSON.stringify({ count: listed.length, mints: listed.map((mint, i) => ({ mint, grad_prob: 1 - i / LIVE_SIZE })) });
  await live.writeSnapshot(LIVE_SNAPSHOT, body(), listed.length, new Date());
  await new Promise((r) => setTimeout(r, 1000));
  const headSeq = async () => Number((await db('firehose_events').max('seq as s').first())?.s ?? 0);

  /** One measured phase of writes; then checks each client got exactly the logged events its topics match. */
  async function phase(name: string) {
    lags = [];
    for (const s of stats) s.seqs = [];
    const startSeq = await headSeq();
    const cpu0 = cpuSeconds(pid);
    const pg0 = postgresCpuSeconds(bench.dataDir);
    const t0 = Date.now();
    let rssPeak = rssMiB(pid);
    let scores = 0;
    let liveWrites = 0;
    const scoreTimer = setInterval(() => {
      const mint = mintAddress(launch++);
      void score(mint, 30)
        .then(() => score(mint, 60))
        .then(() => (scores += 2));
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
    const logged = (await db('firehose_events').where('seq', '>', startSeq).orderBy('seq').select('seq', 'kind', db.raw('payload::text AS payload'))) as {
      seq: string;
      kind: string;
      payload: string;
    }[];
    const facts = logged.map((e) => ({ seq: Number(e.seq), facts: frameFacts(e.kind, JSON.parse(e.payload) as Record<string, unknown>) }));
    let exact = 0;
    for (const s of stats) {
      const wants = compileSubscription(s.topics);
      const expected = facts.filter((e) => wants(e.facts)).map((e) => e.seq);
      if (expected.length === s.seqs.length && expected.every((q, i) => q === s.seqs[i])) exact++;
    }
    lags.sort((a, b) => a - b);
    const q = (p: number) => lags[Math.min(lags.length - 1, Math.floor(p * lags.length))] ?? NaN;
    const counts = stats.map((s) => s.seqs.length).sort((a, b) => a - b);
    return {
      name,
      wallS,
      writes: `${scores} scores, ${liveWrites} live refreshes; ${logged.length} events appended`,
      perClient: `${counts[0]} / ${counts[Math.floor(counts.length / 2)]} / ${counts[counts.length - 1]}`,
      exact: `${exact} of ${stats.length}`,
      outOfOrder: stats.reduce((n, s) => n + s.outOfOrder, 0),
      frames: lags.length,
      lag: `${q(0.5)} / ${q(0.99)} / ${lags[lags.length - 1] ?? NaN}`,
      lagP99: q(0.99),
      cpuPct: (cpuS / wallS) * 100,
      cpuUsPerFrame: lags.length ? (cpuS / lags.length) * 1e6 : NaN,
      pgPct: (pgS / wallS) * 100,
      rssPeak,
    };
  }

  const unfiltered = await phase('unsubscribed (every event to every client)');
  console.error(`phase 1 done: ${unfiltered.frames} frames`);
  // Each client changes to topics of its own on the open connection and waits for the answer.
  const launchesPerPhase = Math.ceil(DURATION_S * LAUNCHES_PER_S) + 10;
  stats.forEach((s, i) => {
    const mints: string[] = [];
    for (let n = launch + (i % MINT_GROUPS); n < launch + launchesPerPhase && mints.length < 100; n += MINT_GROUPS) mints.push(mintAddress(n));
    s.topics = [{ kinds: ['score', 'live'], mints }, ...(i % 10 === 0 ? [{ kinds: ['score' as const], min_grad_prob: 0.9 }] : [])];
    s.subscribed = false;
    s.ws!.send(JSON.stringify({ type: 'subscribe', topics: s.topics }));
  });
  await waitFor('every subscription answered', async () => stats.every((s) => s.subscribed), 60_000).catch((e) => {
    throw new Error(`${(e as Error).message}: ${stats.filter((s) => !s.subscribed).length} unanswered`);
  });
  console.error('every client subscribed to its own topics');
  const filtered = await phase('each client on its own topics');

  const m = machineNow();
  const closedClients = stats.filter((s) => s.closed !== undefined).length;
  for (const s of stats) s.ws?.terminate();
  await api.kill();
  await db.destroy();
  await bench.stop();

  console.log(`\nbench:firehose — ${m.cores} cores (${m.cpu}), ${m.memGiB} GiB, load ${m.load}; 1 API process (NODE_ENV=production), loopback`);
  console.log(`${CLIENTS} clients, ${LAUNCHES_PER_S} launches/s, ${DURATION_S} s per phase; the same connections in both phases`);
  console.log(`| figure | ${unfiltered.name} | ${filtered.name} |\n|---|---|---|`);
  const row = (label: string, f: (p: typeof unfiltered) => string | number) => console.log(`| ${label} | ${f(unfiltered)} | ${f(filtered)} |`);
  row('written', (p) => p.writes);
  row('events per client (min / median / max)', (p) => p.perClient);
  row('clients that got exactly the logged events of their topics, in order', (p) => p.exact);
  row('out-of-order or repeated seqs', (p) => p.outOfOrder);
  row('frames pushed', (p) => `${p.frames} (${Math.round(p.frames / p.wallS)}/s)`);
  row('push lag p50 / p99 / max (ms, append → client)', (p) => p.lag);
  row('API process CPU', (p) => `${p.cpuPct.toFixed(1)} % of one core`);
  row('API CPU per delivered frame', (p) => `${p.cpuUsPerFrame.toFixed(1)} µs`);
  row('Postgres CPU (all backends)', (p) => `${p.pgPct.toFixed(1)} % of one core`);
  row('API RSS peak', (p) => `${p.rssPeak.toFixed(0)} MiB`);
  console.log(`| clients closed by the server, handshakes retried | ${closedClients}, ${retries} | |`);
  console.log(`| API RSS connected idle | ${rssConnected.toFixed(0)} MiB | |`);
  console.log(`| ${CLIENTS} clients connected (key check and lease each, 50 at a time) in | ${connectS.toFixed(1)} s | |`);
  console.log(
    `topics against the unfiltered stream, same run: CPU ${(filtered.cpuPct / unfiltered.cpuPct).toFixed(2)}×, p99 lag ${(filtered.lagP99 / unfiltered.lagP99).toFixed(2)}×`,
  );
}

let apiOutput = () => '';
main().catch((e) => {
  console.error(e, apiOutput());
  process.exit(1);
});
