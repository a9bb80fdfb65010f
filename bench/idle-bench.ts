import fs from 'node:fs';
import path from 'node:path';
import { startOwnStack } from '../scripts/lib/own-stack';
import { childProcesses } from '../scripts/lib/process-table';
import { sleep } from '../scripts/lib/run';
import { cpuSeconds, machineNow } from './lib/proc-stat';

/**
 * `npm run bench:idle`: what an idle `npm start` costs. The real stack on its own ports and data folder, no client
 * at all, warmed up for IDLE_WARMUP_S (the seeded history loaded, models fitted, the simulated market running), then
 * the CPU each process uses over IDLE_WINDOW_S, as a share of one core. The project's own processes (the
 * supervisor, API, worker, ingest, simulated exchange, price and metadata gateway) are summed apart from Temporal and PostgreSQL.
 * The simulated market keeps launching and trading throughout: "idle" means no clients, not no work.
 */
const WARMUP_S = Number(process.env.IDLE_WARMUP_S ?? 180);
const WINDOW_S = Number(process.env.IDLE_WINDOW_S ?? 60);
const OWN = ['supervisor', 'api', 'worker', 'ingest', 'perps-exchange', 'price-source', 'metadata-source'];

const LABELS: [string, RegExp][] = [
  ['api', /api\/server\.ts/],
  ['worker', /workers\/main-worker\.ts/],
  ['ingest', /ingest\/main-ingest\.ts/],
  ['perps-exchange', /main-perps-simulator\.ts/],
  ['price-source', /main-price-simulator\.ts/],
  ['metadata-source', /main-metadata-simulator\.ts/],
  ['temporal', /server start-dev/],
  ['postgres', /\bpostgres -D\b/],
];

/** A process and, for PostgreSQL, its backends: CPU seconds so far (the exited ones counted by their parent). */
function treeCpu(pid: number): number {
  return cpuSeconds(pid, true) + childProcesses(pid).reduce((s, c) => s + (treeCpu(c.pid) || 0), 0);
}

async function main() {
  const dataDir = path.resolve('.data', `bench-idle-${process.pid}`);
  const stack = await startOwnStack({ dataDir, env: { LOG_LEVEL: 'warn' }, readyTimeoutMs: 300_000 });
  try {
    console.log(`stack ready; warming up for ${WARMUP_S} s …`);
    await sleep(WARMUP_S * 1000);
    const procs = [
      { name: 'supervisor', pid: stack.supervisorPid },
      ...childProcesses(stack.supervisorPid).flatMap((p) => {
        const label = LABELS.find(([, re]) => re.test(p.cmdline));
        return label ? [{ name: label[0], pid: p.pid }] : [];
      }),
    ];
    // The supervisor's own time only: its children are measured one by one.
    const cpu = (p: { name: string; pid: number }) => (p.name === 'supervisor' ? cpuSeconds(p.pid) : treeCpu(p.pid));
    const before = procs.map(cpu);
    const t0 = process.hrtime.bigint();
    await sleep(WINDOW_S * 1000);
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const share = procs.map((p, i) => ({ name: p.name, core: (cpu(p) - before[i]!) / seconds }));
    const sum = (names: string[]) => share.filter((s) => names.includes(s.name)).reduce((a, s) => a + s.core, 0);
    const m = machineNow();
    console.log(`\nbench:idle — ${m.cores} cores (${m.cpu}), load ${m.load}; warm-up ${WARMUP_S} s, window ${seconds.toFixed(1)} s, no clients`);
    for (const s of share) console.log(`  ${s.name.padEnd(16)} ${s.core.toFixed(3)} of a core`);
    console.log(`  ${'own processes'.padEnd(16)} ${sum(OWN).toFixed(3)} of a core  (${OWN.filter((n) => share.some((s) => s.name === n)).join(', ')})`);
    console.log(`  ${'temporal'.padEnd(16)} ${sum(['temporal']).toFixed(3)} of a core`);
    console.log(`  ${'postgres'.padEnd(16)} ${sum(['postgres']).toFixed(3)} of a core`);
    console.log(`  ${'total'.padEnd(16)} ${share.reduce((a, s) => a + s.core, 0).toFixed(3)} of a core`);
    await stack.stop();
  } catch (e) {
    await stack.kill();
    throw e;
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
