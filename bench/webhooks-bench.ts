import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createApiKeyStore } from '../db/access/api-key-store';
import { createSignalStore } from '../db/signals/signal-store';
import { EVENT_KINDS } from '../domain/webhooks/event-kinds';
import { DEV_WEBHOOK_SECRET_KEY, parseSecretKey, sealSecret } from '../domain/webhooks/secret-box';
import { newSecret } from '../domain/webhooks/webhook-signature';
import { startDaemon } from '../scripts/lib/daemon-process';
import { freePort, startLocalTemporal } from '../scripts/lib/local-temporal';
import { sleep, waitFor } from '../scripts/lib/run';
import { insertTestCross, testDelivery } from '../test/support/composite-fixtures';
import { freshBenchDatabase } from './lib/bench-db';
import { cpuSeconds, machineNow, postgresCpuSeconds, rssMiB } from './lib/proc-stat';

/**
 * `npm run bench:webhooks`: one composite signal fanned out to SUBSCRIPTIONS (default 10,000) webhook subscriptions on
 * RECEIVERS local HTTP receivers, through the real worker process (`workers/main-worker.ts`: the dispatch Schedule, one
 * delivery workflow per subscription, signed POSTs) against its own Temporal dev server and Postgres database.
 * Prints the time until every subscription had its delivery, the per-delivery latency from the signal's commit to
 * its arrival (p50/p99) and the attempt duration the worker recorded, and the CPU and memory of the worker, Temporal
 * and Postgres over the run.
 */
const SUBSCRIPTIONS = Number(process.env.SUBSCRIPTIONS ?? 10_000);
const RECEIVERS = Number(process.env.RECEIVERS ?? 4);
const TASK_QUEUE = 'bench-webhooks';
const work = path.resolve(__dirname, '..', '.data', 'bench-webhooks');

const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

async function startReceivers(n: number, onDelivery: (at: number) => void) {
  const servers: http.Server[] = [];
  for (let i = 0; i < n; i++) {
    const s = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        onDelivery(Date.now());
        res.writeHead(204).end();
      });
    });
    s.keepAliveTimeout = 30_000;
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    servers.push(s);
  }
  return { ports: servers.map((s) => (s.address() as AddressInfo).port), close: () => servers.forEach((s) => (s.closeAllConnections(), s.close())) };
}

async function main() {
  const machine = machineNow();
  fs.mkdirSync(work, { recursive: true });
  for (const f of fs.readdirSync(work).filter((f) => f.startsWith('temporal.db'))) fs.rmSync(path.join(work, f));
  const bench = await freshBenchDatabase('launchpad_bench_webhooks');
  const { db } = bench;
  const temporal = await startLocalTemporal({ port: await freePort(), dbFile: path.join(work, 'temporal.db'), logFile: path.join(work, 'temporal.log') });
  const arrivals: number[] = [];
  const receivers = await startReceivers(RECEIVERS, (at) => arrivals.push(at));

  // Subscriptions as POST /api/v1/webhooks makes them, spread over the receivers, every one selecting signals.
  const key = await createApiKeyStore(db).issueKey({
    tier: 'enterprise',
    customDailyQuota: 1_000_000,
    planExpiresAt: new Date(Date.now() + 86_400_000),
    source: 'admin',
  });
  const secretKey = parseSecretKey(DEV_WEBHOOK_SECRET_KEY)!;
  const rows = Array.from({ length: SUBSCRIPTIONS }, (_, i) => ({
    key_id: key.id,
    url: `http://127.0.0.1:${receivers.ports[i % RECEIVERS]}/hook/${i}`,
    events: '*',
    event_kinds: [...EVENT_KINDS],
    secret_sealed: sealSecret(newSecret(crypto.getRandomValues(new Uint8Array(32))), secretKey, key.id),
    created_at: new Date(),
  }));
  for (let i = 0; i < rows.length; i += 1000) await db('webhook_subscriptions').insert(rows.slice(i, i + 1000));

  const worker = startDaemon('workers/main-worker.ts', {
    DATABASE_URL: bench.url,
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_TASK_QUEUE: TASK_QUEUE,
    WORKER_METRICS_PORT: String(await freePort()),
    LOG_LEVEL: 'warn',
    EXPECTED_DAEMONS: 'worker',
    PRICE_SOURCE_URL: 'http://127.0.0.1:9/unreachable',
    // Loopback receivers: a test setting the service refuses in production (NODE_ENV is left as development).
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_DISPATCH_EVERY_S: '1',
  });
  const pids = { worker: () => worker.child.pid!, temporal: () => temporal.process!.pid! };
  try {
    await waitFor(
      'the worker',
      async () => !!(await db('daemon_heartbeats').where({ name: 'worker' }).first()),
      180_000,
      () => (worker.child.exitCode !== null ? `the worker exited: ${worker.output().slice(-2000)}` : undefined),
    );
    await sleep(5000);
    const cpu0 = { worker: cpuSeconds(pids.worker()), temporal: cpuSeconds(pids.temporal()), postgres: postgresCpuSeconds(bench.dataDir) };
    const peakRss = { worker: 0, temporal: 0 };
    const rssTimer = setInterval(() => {
      peakRss.worker = Math.max(peakRss.worker, rssMiB(pids.worker()));
      peakRss.temporal = Math.max(peakRss.temporal, rssMiB(pids.temporal()));
    }, 500);

    console.log(`bench:webhooks — one ACT signal to ${SUBSCRIPTIONS} subscriptions on ${RECEIVERS} local receivers …`);
    const x = await insertTestCross(db, { crossedAtMs: Date.now() - 30_000 });
    const t0 = Date.now();
    await createSignalStore(db).deliver(testDelivery(x, 0.4, t0));
    let next = t0 + 10_000;
    while (arrivals.length < SUBSCRIPTIONS && Date.now() - t0 < 900_000) {
      await sleep(100);
      if (Date.now() >= next) {
        next += 10_000;
        console.log(`  ${Math.round((Date.now() - t0) / 1000)} s: ${arrivals.length} delivered`);
      }
    }
    clearInterval(rssTimer);
    const t1 = Date.now();
    await sleep(3000);
    const event = await db('webhook_events').whereNot({ kind: 'skipped' }).first();
    const durations = (await db('webhook_deliveries').select('duration_ms', 'state'))
      .filter((r) => r.state === 'succeeded')
      .map((r) => r.duration_ms as number);
    durations.sort((a, b) => a - b);
    const lat = arrivals.map((a) => a - t0).sort((a, b) => a - b);
    const s = (ms: number) => (ms / 1000).toFixed(1);
    const used = {
      worker: cpuSeconds(pids.worker()) - cpu0.worker,
      temporal: cpuSeconds(pids.temporal()) - cpu0.temporal,
      postgres: postgresCpuSeconds(bench.dataDir) - cpu0.postgres,
    };
    const wall = (t1 - t0) / 1000;
    console.log(
      `  delivered ${arrivals.length}/${SUBSCRIPTIONS} in ${s(t1 - t0)} s (${Math.round(arrivals.length / wall)}/s); fan-out (all ${event?.deliveries ?? '?'} workflows started) ${event?.dispatched_at ? s(new Date(event.dispatched_at).getTime() - t0) : '?'} s after the commit`,
    );
    console.log(
      `  per delivery, commit → arrival: p50 ${s(pct(lat, 50))} s, p99 ${s(pct(lat, 99))} s; attempt (POST) duration p50 ${pct(durations, 50)} ms, p99 ${pct(durations, 99)} ms`,
    );
    console.log(
      `  CPU over the run: worker ${used.worker.toFixed(1)} s (${((used.worker / wall) * 100).toFixed(0)}% of a core), Temporal ${used.temporal.toFixed(1)} s, Postgres ${used.postgres.toFixed(1)} s; peak RSS worker ${peakRss.worker.toFixed(0)} MiB, Temporal ${peakRss.temporal.toFixed(0)} MiB`,
    );
    const perDelivery = (cpuS: number) => ((cpuS * 1000) / Math.max(1, arrivals.length)).toFixed(1);
    console.log(
      `  CPU per delivery: worker ${perDelivery(used.worker)} ms, Temporal ${perDelivery(used.temporal)} ms, Postgres ${perDelivery(used.postgres)} ms`,
    );
    console.log(`  machine: ${machine.cores} cores (${machine.cpu}), ${machine.memGiB} GiB, load ${machine.load} at start, ${machineNow().load} at the end`);
  } finally {
    await worker.kill();
    receivers.close();
    await temporal.stop();
    await db.destroy();
    await bench.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
