import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApiKeyStore } from '../db/access/api-key-store';
import { createDb } from '../platform/db';
import { startOwnStack, type OwnStack } from '../scripts/lib/own-stack';
import { childProcesses, type SupervisedName } from '../scripts/lib/process-table';
import { sleep, waitFor } from '../scripts/lib/run';
import { checkConsistency, type Consistency } from './lib/chaos-consistency';
import { machineLine } from './lib/load';
import { listeningPids } from './lib/port-owner';
import { formatOutcomes, startPacedLoad, windowStats, type Sample } from './lib/paced-load';
import { newestIngestedAt, probes } from './lib/stack-probes';
import { asDb } from '../db/knex-handle';

/**
 * `npm run chaos [-- phaseS [launchesPerS [requestsPerS [settleS]]]]`: the whole stack as `npm start` runs it
 * (its supervisor and the API's hot standby included) on its own ports and data folder (`.data/chaos`, wiped
 * first), the simulator feeding it, under a bounded open-loop load on `/api/live` and on `/api/v1/live` with an
 * Enterprise key (plus a slow stream on a key with a 300-call quota, so quota counting is exercised across the
 * kills). It SIGKILLs in turn the ingest, the worker, the serving API's primary, one of its processes, its whole
 * process group, Postgres and Temporal, each once everything is healthy again, and prints per kill what the clients
 * saw and how long the process took to be back; then, after the last lifecycles had time to score, the consistency
 * counts. For a kill of the API, "back" is what the clients saw: each full-rate load stream's longest silence (no
 * answer at all) from the kill on, printed with when it ended; the aims line is computed from those same figures.
 */
const PHASE_S = Number(process.argv[2] ?? 30);
const LAUNCHES_PER_S = Number(process.argv[3] ?? 2);
const RATE_PER_S = Number(process.argv[4] ?? 20);
const SETTLE_S = Number(process.argv[5] ?? 70);
const ALL: SupervisedName[] = ['postgres', 'temporal', 'worker', 'api', 'api-standby', 'ingest'];
const QUOTA = 300;
const BACK_WITHIN_MS = 10_000;
/** How soon the API must answer every load stream again after any of its kills. */
const API_BACK_WITHIN_MS = 2000;
const root = path.resolve(__dirname, '..');

/** What one kill takes down: a supervised process, or the serving API's primary, one of its processes, or its group. */
type Target = 'ingest' | 'worker' | 'postgres' | 'temporal' | 'api primary' | 'api process' | 'api group';
const TARGETS: Target[] = ['ingest', 'worker', 'api primary', 'api process', 'api group', 'postgres', 'temporal'];
const isApiKill = (t: Target) => t.startsWith('api ');

type Phase = {
  target: Target;
  from: number;
  killAt: number;
  to: number;
  /** The killed (or, for an API kill, the restarted) supervised process answering its probe again. */
  backAfterMs: number | undefined;
  /** API kills: per full-rate load stream, its longest silence from the kill on, and when (after the kill) it ended. */
  clients?: Record<string, { silenceMs: number; endedAfterMs: number }>;
  insertingAfterMs?: number;
  alsoRestarted: string[];
};

async function main() {
  const dataDir = path.join(root, '.data', 'chaos');
  const logFile = path.join(root, '.cache', 'bench', 'chaos.log');
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  fs.rmSync(logFile, { force: true });
  console.log(`chaos: starting the stack (npm start on free ports, data in .data/chaos, its output in ${path.relative(root, logFile)}) …`);
  const startedAt = new Date();
  const stack = await startOwnStack({
    dataDir,
    logFile,
    env: {
      NODE_ENV: 'production',
      DEMO_MODE: 'true',
      LOG_LEVEL: 'warn',
      SIMULATOR_LAUNCHES_PER_S: String(LAUNCHES_PER_S),
      PRICE_SOURCE_URL: 'http://127.0.0.1:9/unreachable',
    },
  });
  try {
    await run(stack, startedAt);
  } finally {
    await stack.kill();
  }
}

async function run(stack: OwnStack, startedAt: Date) {
  const db = asDb(createDb(stack.pgUrl('launchpad'), 2));
  const keys = createApiKeyStore(db);
  const enterprise = await keys.issueKey({ tier: 'enterprise', customDailyQuota: 1_000_000_000, source: 'admin' });
  const limited = await keys.issueKey({ tier: 'enterprise', customDailyQuota: QUOTA, source: 'admin' });
  await db.destroy();
  await waitFor('the first live snapshot', async () => (await fetch(`${stack.apiUrl}/api/live`)).status === 200, 120_000);
  console.log(`chaos: stack up; load ${RATE_PER_S}/s on /api/live and on /api/v1/live (Enterprise key), 2/s on a ${QUOTA}-call key; ${PHASE_S} s per kill`);

  const load = startPacedLoad(
    [
      { name: '/api/live', url: `${stack.apiUrl}/api/live`, ratePerS: RATE_PER_S },
      { name: '/api/v1/live (key)', url: `${stack.apiUrl}/api/v1/live`, ratePerS: RATE_PER_S, headers: { authorization: `Bearer ${enterprise.plaintext}` } },
      { name: `/api/v1/live (${QUOTA}-call key)`, url: `${stack.apiUrl}/api/v1/live`, ratePerS: 2, headers: { 'x-api-key': limited.plaintext } },
    ],
    { timeoutMs: 2000 },
  );
  const probe = probes(stack);
  const healthy = async () => {
    for (const name of ALL) {
      const pid = stack.pid(name);
      if (!pid || !(await probe[name](pid).catch(() => false))) return false;
    }
    return true;
  };
  await sleep(5000);
  const STREAMS_20 = ['/api/live', '/api/v1/live (key)'];
  /** Per full-rate stream: its longest silence from the kill on, and when it ended. */
  const clientsBack = (samples: Sample[], killAt: number, to: number) =>
    Object.fromEntries(
      STREAMS_20.map((st) => {
        const w = windowStats(samples, killAt, to, st);
        return [st, { silenceMs: w.longestSilenceMs, endedAfterMs: w.longestSilenceEndsAt - killAt }];
      }),
    );

  const phases: Phase[] = [];
  const apiPort = Number(new URL(stack.apiUrl).port);
  for (const target of TARGETS) {
    await waitFor('every process to be healthy', healthy, 120_000).catch(() => console.log('chaos: not everything is healthy; killing anyway'));
    const from = Date.now();
    const before = Object.fromEntries(ALL.map((n) => [n, stack.pid(n)]));
    await sleep(3000);
    const victim = pick(stack, target, apiPort);
    if (!victim) throw new Error(`chaos: found no process for ${target}`);
    const killAt = Date.now();
    process.kill(victim.group ? -victim.pid : victim.pid, 'SIGKILL');
    const phase: Phase = { target, from, killAt, to: 0, backAfterMs: undefined, alsoRestarted: [] };
    const newestBefore = target === 'ingest' ? await newestIngestedAt(stack).catch(() => 0) : 0;
    const limitMs = Math.max(PHASE_S * 1000, 90_000);
    // For a kill inside the API (one process) the supervised service itself stays; its primary forks again.
    const service = victim.service;
    await waitFor(
      `${target} to be back`,
      async () => {
        const now = stack.pid(service);
        return now !== undefined && (now !== victim.servicePid || target === 'api process') && (await probe[service](now));
      },
      limitMs,
    ).then(
      () => (phase.backAfterMs = Date.now() - killAt),
      () => undefined,
    );
    if (target === 'ingest') {
      // Back is not enough: the feed must be writing new launches again.
      const until = killAt + PHASE_S * 1000;
      await waitFor('new launches', async () => (await newestIngestedAt(stack)) > Math.max(killAt, newestBefore), Math.max(0, until - Date.now())).then(
        () => (phase.insertingAfterMs = Date.now() - killAt),
        () => undefined,
      );
    }
    const end = Math.max(killAt + PHASE_S * 1000, Date.now() + 5000);
    await sleep(end - Date.now());
    phase.to = Date.now();
    if (isApiKill(target)) phase.clients = clientsBack(load.samples, killAt, phase.to);
    phase.alsoRestarted = ALL.filter((n) => n !== service && stack.pid(n) !== before[n]);
    phases.push(phase);
    const back = phase.backAfterMs === undefined ? `not back within ${limitMs / 1000} s` : `back after ${(phase.backAfterMs / 1000).toFixed(1)} s`;
    const clients = phase.clients ? `; longest silence per stream ${silences(phase.clients)}` : '';
    console.log(
      `chaos: killed ${target} (pid ${victim.pid}${victim.group ? ', its group' : ''}): ${back}${clients}${phase.alsoRestarted.length ? `; also restarted: ${phase.alsoRestarted.join(', ')}` : ''}`,
    );
  }

  console.log(`chaos: letting the last lifecycles score (${SETTLE_S} s) …`);
  await sleep(SETTLE_S * 1000);
  await load.stop();
  const consistency = await checkConsistency(stack, { from: startedAt, before: new Date(Date.now() - 95_000), buckets: [30, 60] });
  const stopCode = await stack.stop();
  report(phases, load.samples, consistency, { stopCode, said: stack.supervisorLines(), skipped: load.skipped() });
}

/** How long the outage of a phase lasted, for its "while down" counts: what the clients saw for an API kill, else the probe. */
const downMs = (p: Phase) =>
  p.clients ? Math.max(...Object.values(p.clients).map((c) => c.endedAfterMs)) : p.backAfterMs === undefined ? p.to - p.killAt : p.backAfterMs;

/** "1.62 s (ended 1.81 s after the kill) / …", one per stream. */
const silences = (c: NonNullable<Phase['clients']>) =>
  Object.values(c)
    .map((x) => `${(x.silenceMs / 1000).toFixed(2)} s (ended ${(x.endedAfterMs / 1000).toFixed(2)} s after the kill)`)
    .join(' / ');

/** The process one kill targets, the supervised service it belongs to (whose return is awaited), and whether to kill its group. */
function pick(
  stack: OwnStack,
  target: Target,
  apiPort: number,
): { pid: number; group: boolean; service: SupervisedName; servicePid: number | undefined } | undefined {
  if (!isApiKill(target)) {
    const pid = stack.pid(target as SupervisedName);
    return pid === undefined ? undefined : { pid, group: false, service: target as SupervisedName, servicePid: pid };
  }
  // The serving API is whichever of the two (npm start's API and its hot standby) holds the listening socket.
  const owners = new Set(listeningPids(apiPort));
  const service = (['api', 'api-standby'] as const).find((n) => owners.has(stack.pid(n) ?? -1));
  const primary = service && stack.pid(service);
  if (!service || primary === undefined) return undefined;
  if (target === 'api process') {
    const child = childProcesses(primary).find((c) => owners.has(c.pid));
    return { pid: child?.pid ?? primary, group: false, service, servicePid: primary };
  }
  return { pid: primary, group: target === 'api group', service, servicePid: primary };
}

function report(phases: Phase[], samples: Sample[], c: Consistency, o: { stopCode: number | null; said: string[]; skipped: number }) {
  const s = (ms: number | undefined) => (ms === undefined ? 'n/a' : (ms / 1000).toFixed(1));
  const pct = (a: number, b: number) => (b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(1)}%`);
  console.log(
    `\nchaos — ${machineLine()}; load average ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' / ')} (1/5/15 min)`,
  );
  console.log(
    `${PHASE_S} s per kill, simulator ${LAUNCHES_PER_S} launches/s, ${RATE_PER_S} req/s on each of /api/live and /api/v1/live (+2 req/s on a ${QUOTA}-call key); every process on this machine\n`,
  );
  console.log(
    '| killed | longest silence per stream after the kill: /api/live / /api/v1/live | process back after (s) | requests | answered | 5xx (of which 500) | longest API silence (s) | while down: answered | while down: statuses | also restarted |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  const s2 = (ms: number) => (ms / 1000).toFixed(2);
  for (const p of phases) {
    const all = windowStats(samples, p.from, p.to);
    const down = windowStats(samples, p.killAt, p.killAt + downMs(p));
    const back = p.target === 'ingest' ? `${s(p.backAfterMs)} (inserting after ${s(p.insertingAfterMs)})` : s(p.backAfterMs);
    const clients = p.clients ? silences(p.clients) : '—';
    const n500 = all.byOutcome['500'] ?? 0;
    console.log(
      `| ${p.target} | ${clients} | ${back} | ${all.sent} | ${pct(all.answered, all.sent)} | ${all.serverErrors} (${n500}) | ${s(all.longestSilenceMs)} | ` +
        `${down.answered} / ${down.sent} (${pct(down.answered, down.sent)}) | ${formatOutcomes(down.byOutcome)} | ${p.alsoRestarted.join(', ') || '—'} |`,
    );
  }
  console.log(
    '\nstatuses per stream over each whole phase (from 3 s before the kill):\n\n| killed | stream | statuses and connection failures |\n|---|---|---|',
  );
  const streams = [...new Set(samples.map((x) => x.stream))];
  for (const p of phases)
    for (const st of streams) console.log(`| ${p.target} | ${st} | ${formatOutcomes(windowStats(samples, p.from, p.to, st).byOutcome)} |`);

  console.log('\n| consistency (after the run) | count |\n|---|---|');
  console.log(`| non-mayhem mints checked (created before the last 95 s) | ${c.mintsChecked} |`);
  console.log(`| mints missing a score not skipped as late | ${c.missingScores} |`);
  console.log(`| (scores skipped as late, by design) | ${c.skippedLate} |`);
  console.log(`| duplicate predictions | ${c.duplicatePredictions} |`);
  console.log(`| mints without a lifecycle workflow | ${c.withoutLifecycle} |`);
  console.log(`| payments activated without payment | ${c.activatedWithoutPayment} |`);
  console.log(`| quota rows over their limit | ${c.quotaRowsOverLimit} |`);

  const duringDown = (t: Target) => {
    const p = phases.find((x) => x.target === t)!;
    return windowStats(samples, p.killAt, p.killAt + downMs(p));
  };
  const bg = (['worker', 'ingest'] as const).map(duringDown);
  const apiKills = phases.filter((p) => p.clients);
  const apiBack = apiKills.map((p) => ({ target: p.target, ms: Math.max(...Object.values(p.clients!).map((c) => c.silenceMs)) }));
  const all500 = phases.reduce((n, p) => n + (windowStats(samples, p.killAt, p.to).byOutcome['500'] ?? 0), 0);
  const slowest = Math.max(...phases.map((p) => p.backAfterMs ?? Infinity));
  const counts = [c.missingScores, c.duplicatePredictions, c.withoutLifecycle, c.activatedWithoutPayment, c.quotaRowsOverLimit];
  const aim = (ok: boolean) => (ok ? 'met' : 'NOT met');
  console.log('\naims (issue 11):');
  console.log(
    `- API answers ≥ 99% of requests while the worker or the ingest is down: ${aim(bg.every((w) => w.answered >= 0.99 * w.sent))} (${bg.map((w) => pct(w.answered, w.sent)).join(', ')})`,
  );
  console.log(`- no 500 during any outage (503 instead): ${aim(all500 === 0)} (${all500} × 500)`);
  console.log(
    `- API answering every stream again within ${API_BACK_WITHIN_MS / 1000} s of each kill of its primary, of one process, of its group (each stream's longest silence after the kill, as printed above): ${aim(apiBack.every((b) => b.ms <= API_BACK_WITHIN_MS))} (${apiBack.map((b) => `${b.target} ${s2(b.ms)} s`).join(', ')})`,
  );
  console.log(`- every process back within 10 s: ${aim(slowest <= BACK_WITHIN_MS)} (slowest ${s(Number.isFinite(slowest) ? slowest : undefined)} s)`);
  console.log(`- all consistency counts 0: ${aim(counts.every((n) => n === 0))}`);
  console.log(`\nnpm start stopped with code ${o.stopCode} on SIGTERM; requests the load generator could not send: ${o.skipped}`);
  console.log(
    `supervisor said:\n${o.said
      .filter((l) => !/^• (starting|database ready)/.test(l))
      .map((l) => `  ${l}`)
      .join('\n')}`,
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
