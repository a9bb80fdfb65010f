import fs from 'node:fs';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { startDaemon } from '../scripts/lib/daemon-process';
import { freePort, startLocalTemporal } from '../scripts/lib/local-temporal';
import { sleep, waitFor } from '../scripts/lib/run';
import { DEFAULT_TIMING, mintWorkflowId, type LifecycleTiming } from '../workflows/mint/mint-lifecycle-contract';
import { benchDatabase } from './lib/bench-postgres';
import { launchMints } from './lib/lifecycle-launcher';
import { printExtrapolation } from './lib/lifecycle-extrapolation';
import { printSeries, sampleAt, scoreLateness, type Lateness } from './lib/lifecycle-report';
import { startSampler, type ProcessGroup } from './lib/lifecycle-sampler';
import { machineNow, postgresCpuSeconds, postgresPids } from './lib/proc-stat';
import { loadConfig } from '../platform/config';

/**
 * `npm run bench:lifecycles [-- count [fillPerS [probePerS [probeS]]]] [--scored-fill]`: what tens of thousands of
 * open mint lifecycles cost. Against a Temporal dev server (its own port and db file; or TEMPORAL_ADDRESS) and the
 * real worker process (`workers/main-worker.ts`), it launches `count` mints (default 50,000) at up to `fillPerS`
 * a second as ingestion does (rows through the ingest store, then `mint:<address>` through the lifecycle starter),
 * with the 24 h resolution compressed to RESOLVE_AFTER_S, so every lifecycle stays open for the whole run. Fill
 * launches are dated past their scores' allowed lateness, so they skip scoring and wait for resolution (scoring
 * 50,000 at a compressed rate would measure a backlog, not a day); `--scored-fill` scores them too. Then, with
 * them all open, a quiet window (what holding them costs) and a probe stream at a production-like rate whose
 * 30 s / 60 s score lateness is read from the predictions table. Prints memory, CPU and open lifecycles over
 * time, the lateness, and what a day at 70,000 launches needs by extrapolation.
 */
const args = process.argv.slice(2);
const [COUNT = 50_000, FILL_PER_S = 100, PROBE_PER_S = 2, PROBE_S = 120] = args.filter((a) => !a.startsWith('--')).map(Number);
/** Score every fill launch too (costly: the fill then runs at what the machine can score). */
const SCORED_FILL = args.includes('--scored-fill');
/** How far back an unscored fill launch is dated: past its 60 s score and the allowed lateness. */
const LATE_S = 60 + DEFAULT_TIMING.maxLatenessS + 30;
/** Long enough to hold a watchdog tick and a live-projector refresh (each once a minute here). */
const QUIET_S = 60;
const RESOLVE_AFTER_S = 4 * 3600;
const DAY_LAUNCHES = 70_000;
const root = path.resolve(__dirname, '..');
const work = path.join(root, '.cache', 'bench', 'lifecycles');
const TASK_QUEUE = 'bench-lifecycles';
const BUCKETS = DEFAULT_TIMING.scores.map((s) => s.bucket);

async function main() {
  const machine = machineNow();
  fs.mkdirSync(work, { recursive: true });
  const bench = await benchDatabase('launchpad_bench_lifecycles');
  const { db } = bench;
  const temporalDb = path.join(work, 'temporal.db');
  for (const f of fs.readdirSync(work).filter((f) => f.startsWith('temporal.db'))) fs.rmSync(path.join(work, f));
  const temporal = process.env.TEMPORAL_ADDRESS
    ? { address: process.env.TEMPORAL_ADDRESS, process: undefined, stop: async () => undefined }
    : await startLocalTemporal({ port: await freePort(), dbFile: temporalDb, logFile: path.join(work, 'temporal.log') });
  const worker = startDaemon('workers/main-worker.ts', {
    DATABASE_URL: bench.url,
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_TASK_QUEUE: TASK_QUEUE,
    WORKER_METRICS_PORT: String(await freePort()),
    NODE_ENV: 'production',
    DEMO_MODE: 'true',
    LOG_LEVEL: 'info',
    EXPECTED_DAEMONS: 'worker',
    PRICE_SOURCE_URL: 'http://127.0.0.1:9/unreachable',
    // The live projector folds every mint of its window each refresh: at the compressed launch rate the default
    // window (300 s) would hold 60× a real day's mints. The smallest window and slowest refresh keep its cost,
    // which is not the lifecycles', near what a real day costs.
    LIVE_WINDOW_S: '60',
    LIVE_REFRESH_MS: '60000',
  });
  const connection = await Connection.connect({ address: temporal.address });
  const client = new Client({ connection });
  const timing: LifecycleTiming = { ...DEFAULT_TIMING, resolveAfterS: RESOLVE_AFTER_S };
  try {
    await waitFor(
      'the worker',
      async () => !!(await db('daemon_heartbeats').where({ name: 'worker' }).first()),
      180_000,
      () => (worker.child.exitCode !== null ? `the worker exited: ${worker.output().slice(-2000)}` : undefined),
    );
    const groups: ProcessGroup[] = [
      { name: 'worker', pids: () => [worker.child.pid!] },
      { name: 'temporal', pids: () => (temporal.process?.pid ? [temporal.process.pid] : []) },
      { name: 'postgres', pids: () => postgresPids(bench.dataDir), cpuSeconds: () => postgresCpuSeconds(bench.dataDir) },
    ];
    let launched = 0;
    const sampler = startSampler({ client, groups, launched: () => launched, everyMs: 5000 });
    const t0 = Date.now();

    const fillNote = SCORED_FILL ? 'each scored at 30 s and 60 s' : `dated ${LATE_S} s back, so they skip their scores as late and go straight to waiting`;
    console.log(
      `bench:lifecycles — launching ${COUNT} lifecycles at up to ${FILL_PER_S}/s, ${fillNote} (resolution compressed to ${RESOLVE_AFTER_S / 3600} h) …`,
    );
    let nextReport = t0 + 30_000;
    const fill = await launchMints({
      db,
      client,
      taskQueue: TASK_QUEUE,
      timing,
      count: COUNT,
      perS: FILL_PER_S,
      createdAgoS: SCORED_FILL ? 0 : LATE_S,
      onLaunched: (n) => {
        launched = n;
        if (Date.now() >= nextReport) {
          nextReport += 30_000;
          const s = sampler.samples[sampler.samples.length - 1];
          console.log(
            `  ${Math.round((Date.now() - t0) / 1000)} s: ${n} launched, ${s?.open ?? '?'} open, worker ${s?.rss.worker?.toFixed(0)} MiB, temporal ${s?.rss.temporal?.toFixed(0)} MiB`,
          );
        }
      },
    });
    const fillEnd = Date.now();
    const fillRate = COUNT / ((fillEnd - t0) / 1000);
    console.log(`  all ${COUNT} launched in ${Math.round((fillEnd - t0) / 1000)} s (${fillRate.toFixed(1)}/s)`);
    if (SCORED_FILL) await waitForScores(db, t0, fillEnd, COUNT);
    // Started is not yet run: the worker may still be working through a backlog of first workflow tasks.
    const drainDeadline = Date.now() + 1_800_000;
    while (
      !(await firstTasksDone(
        client,
        fill.slice(-20).map((m) => m.mint),
      )) &&
      Date.now() < drainDeadline
    )
      await sleep(5000);
    await sleep(10_000);
    const filled = Date.now();

    await sleep(QUIET_S * 1000);
    const quietEnd = Date.now();
    console.log(`  probe: ${PROBE_PER_S}/s for ${PROBE_S} s with them all open …`);
    const probe = await launchMints({
      db,
      client,
      taskQueue: TASK_QUEUE,
      timing,
      count: Math.round(PROBE_PER_S * PROBE_S),
      perS: PROBE_PER_S,
      onLaunched: (n) => (launched = COUNT + n),
    });
    const probeEnd = Date.now();
    await waitForScores(db, quietEnd, probeEnd, probe.length);
    const probeSettled = Date.now();
    await sleep(5000);
    await sampler.stop();
    const samples = sampler.samples;
    const names = groups.map((g) => g.name);

    console.log(
      `\nbench:lifecycles — ${machine.cores} cores (${machine.cpu}), ${machine.memGiB} GiB; load average before ${machine.load}, after ${machineNow().load}`,
    );
    console.log(
      `Temporal dev server ${process.env.TEMPORAL_ADDRESS ? `at ${process.env.TEMPORAL_ADDRESS} (not started here: no RSS)` : '(SQLite file, started here)'}; worker workers/main-worker.ts, NODE_ENV=production, LOG_LEVEL=info`,
    );
    // The worker inherits this environment: its tuning is what the typed config makes of it.
    const tuning = loadConfig().worker;
    const maxCached = tuning.maxCachedWorkflows;
    console.log(
      `worker tuning (platform/settings/worker-settings.ts): maxCachedWorkflows ${maxCached}, maxConcurrentWorkflowTaskExecutions ${tuning.maxConcurrentWorkflowTaskExecutions}, maxConcurrentActivityTaskExecutions ${tuning.maxConcurrentActivityTaskExecutions}`,
    );
    console.log(`fill: ${COUNT} lifecycles in ${Math.round((fillEnd - t0) / 1000)} s (${fillRate.toFixed(1)} launches/s), ${fillNote}`);
    printSeries(samples, names, t0, 30);

    console.log(
      '\n| phase | mints | without all scores | 30 s lateness p50 / p99 / max s | 60 s lateness p50 / p99 / max s | aim p99 < 1 s |\n|---|---|---|---|---|---|',
    );
    if (SCORED_FILL) printLateness(`fill (${fillRate.toFixed(1)} launches/s while the open count grows)`, await scoreLateness(db, t0, fillEnd + 1, BUCKETS));
    printLateness(`probe (${PROBE_PER_S} launches/s with ${COUNT} open)`, await scoreLateness(db, quietEnd, probeEnd + 1, BUCKETS));

    const dbFile = ['', '-wal']
      .map((x) => temporalDb + x)
      .filter((f) => fs.existsSync(f))
      .reduce((s, f) => s + fs.statSync(f).size, 0);
    if (dbFile > 0)
      console.log(
        `\nTemporal dev server database: ${(dbFile / 2 ** 20).toFixed(0)} MiB for ${COUNT + probe.length} lifecycles → ${(dbFile / (COUNT + probe.length) / 1024).toFixed(1)} KiB each`,
      );
    const openAtQuiet = sampleAt(samples, quietEnd).open ?? COUNT;
    printExtrapolation(
      samples,
      {
        before: t0,
        fill: { from: t0, to: filled, launches: COUNT },
        quiet: { from: filled, to: quietEnd },
        probe: { from: quietEnd, to: probeSettled, launches: probe.length },
      },
      { groups: names, dayLaunches: DAY_LAUNCHES, maxCached, openAtQuiet },
    );
    console.log(`\nran ${Math.round((Date.now() - t0) / 1000)} s`);
  } finally {
    await connection.close().catch(() => undefined);
    await worker.kill();
    await temporal.stop();
    // The dev server's database of a 50,000 run is most of a gigabyte: nothing reads it afterwards.
    if (!process.env.TEMPORAL_ADDRESS) for (const f of fs.readdirSync(work).filter((f) => f.startsWith('temporal.db'))) fs.rmSync(path.join(work, f));
    await db.destroy();
    await bench.stop();
  }
}

function printLateness(name: string, x: { lateness: Lateness; mints: number; missing: number }) {
  const cell = (b: number) => {
    const l = x.lateness.find((y) => y.bucket === b)!;
    return `${l.p50.toFixed(2)} / ${l.p99.toFixed(2)} / ${l.max.toFixed(2)} (n ${l.n})`;
  };
  const met = x.missing === 0 && x.lateness.every((l) => l.p99 < 1);
  console.log(`| ${name} | ${x.mints} | ${x.missing} | ${cell(30)} | ${cell(60)} | ${met ? 'met' : '**not met**'} |`);
}

/** Whether each of these lifecycles has run its first workflow task (it then waits on a timer). */
async function firstTasksDone(client: Client, mints: string[]): Promise<boolean> {
  for (const m of [...mints].reverse()) {
    const history = await client.workflow.getHandle(mintWorkflowId(m)).fetchHistory();
    if (!history.events?.some((e) => e.timerStartedEventAttributes)) return false;
  }
  return true;
}

/** Until every mint created in [from, to] has a prediction per bucket (or their last score is well overdue). */
async function waitForScores(db: import('knex').Knex, from: number, to: number, count: number) {
  const deadline = to + (Math.max(...BUCKETS) + DEFAULT_TIMING.maxLatenessS + 60) * 1000;
  const range = [new Date(from), new Date(to + 1)];
  for (;;) {
    const [r] = (
      await db.raw(
        `SELECT count(*)::int AS n FROM predictions p JOIN mints m USING (mint) WHERE m.source = 'bench' AND m.created_at >= ? AND m.created_at < ?`,
        range,
      )
    ).rows as { n: number }[];
    if ((r?.n ?? 0) >= count * BUCKETS.length || Date.now() > deadline) return;
    await sleep(2000);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
