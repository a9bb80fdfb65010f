import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { portOpen } from '../../../scripts/lib/local-temporal';
import { startOwnStack, type OwnStack } from '../../../scripts/lib/own-stack';
import { isAlive, type SupervisedName } from '../../../scripts/lib/process-table';
import { sleep, waitFor } from '../../../scripts/lib/run';
import { ROOT } from '../../support/test-env';

/**
 * The real `npm start` (scripts/start.ts) on its own ports and data folder: processes SIGKILLed one after another
 * come back while the rest keep running and the API keeps answering, and SIGTERM then stops everything, Postgres
 * last, although Temporal and Postgres themselves died from a signal on the way.
 */
const dataDir = path.join(ROOT, '.data', `start-test-${process.pid}`);
let stack: OwnStack | undefined;
const seen = new Set<number>();
let passed = false;

afterAll(async () => {
  // What the stack said is the first thing to read when this test fails.
  if (stack && !passed) console.log(`${stack.supervisorLines().join('\n')}\n…\n${stack.output().slice(-6000)}`);
  await stack?.kill();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const pidOf = (name: SupervisedName) => {
  const pid = stack!.pid(name);
  if (pid) seen.add(pid);
  return pid;
};
const said = () => stack!.supervisorLines();
// A status probe on a 2 s budget while processes restart, on a loaded machine: raw fetch, not the typed client, whose
// contract check would parse and validate the whole live list inside that budget (the list's body is tested elsewhere).
const answers = async () => (await fetch(`${stack!.apiUrl}/api/live`, { signal: AbortSignal.timeout(2000) }).catch(() => null))?.status;

/** Kills `name` and waits for a new process of it; returns the statuses the API gave meanwhile (every 100 ms). */
async function killAndWait(name: SupervisedName, ready: () => Promise<boolean>): Promise<(number | undefined)[]> {
  const old = pidOf(name)!;
  expect(old).toBeDefined();
  process.kill(old, 'SIGKILL');
  const statuses: (number | undefined)[] = [];
  await waitFor(
    `${name} to come back`,
    async () => {
      statuses.push(await answers());
      const now = pidOf(name);
      return now !== undefined && now !== old && said().includes(`• ${name} is back (pid ${now})`) && (await ready());
    },
    60_000,
  );
  expect(said().join('\n')).toMatch(new RegExp(`${name} exited \\(SIGKILL\\) after [\\d.]+ s; restarting in 0\\.5 s`));
  return statuses;
}

it('restarts the API, the ingest, Temporal and Postgres after SIGKILL, then stops everything on SIGTERM', async () => {
  stack = await startOwnStack({ dataDir, env: { LOG_LEVEL: 'warn', PRICE_SOURCE_URL: 'http://127.0.0.1:9/unreachable', SIMULATOR_HISTORY_LAUNCHES: '300' } });
  // The first live snapshot comes from the worker's projector a few seconds after start.
  await waitFor('the first live snapshot', async () => (await answers()) === 200, 60_000);
  const first = { worker: pidOf('worker'), api: pidOf('api'), ingest: pidOf('ingest'), temporal: pidOf('temporal'), postgres: pidOf('postgres') };
  expect(Object.values(first).every((p) => p !== undefined)).toBe(true);

  // The API process itself: its hot standby takes the port over and answers; the API started again waits in its
  // turn, once loaded (it says it is standing by), before anything else is killed under it.
  const standingBy = () => stack!.output().split('standing by').length - 1;
  const waitingBefore = standingBy();
  await killAndWait('api', async () => (await answers()) === 200 && standingBy() > waitingBefore);
  expect([pidOf('worker'), pidOf('ingest')]).toEqual([first.worker, first.ingest]);

  // The ingest serves no HTTP: the API must not notice at all.
  const during = await killAndWait('ingest', async () => true);
  expect(during.filter((s) => s !== 200)).toEqual([]);
  await sleep(1000);
  expect(await answers()).toBe(200);

  const api = pidOf('api');
  await killAndWait('temporal', async () => portOpen(Number(stack!.temporalAddress.split(':')[1])));
  await killAndWait('postgres', async () => {
    const c = new Client({ connectionString: stack!.pgUrl('launchpad'), connectionTimeoutMillis: 1000 });
    try {
      await c.connect();
      return (await c.query('SELECT 1 AS one')).rows[0].one === 1;
    } finally {
      await c.end().catch(() => undefined);
    }
  });
  await waitFor('the API to answer after the Postgres restart', async () => (await answers()) === 200, 30_000);
  expect(pidOf('api')).toBe(api);

  const pids = [...seen];
  expect(await stack.stop()).toBe(0);
  for (const pid of pids) expect([pid, isAlive(pid)]).toEqual([pid, false]);
  const at = (s: string) => said().indexOf(s);
  expect(at('• stopping perps-exchange, metadata-source, worker, api, ingest, api-standby …')).toBeGreaterThan(-1);
  expect(at('• stopping perps-exchange, metadata-source, worker, api, ingest, api-standby …')).toBeLessThan(at('• stopping temporal …'));
  expect(at('• stopping temporal …')).toBeLessThan(at('• stopping postgres …'));
  expect(at('• stopping postgres …')).toBeLessThan(at('• stopped'));
  expect(fs.existsSync(path.join(dataDir, 'postgres', 'dev', 'postmaster.pid'))).toBe(false);
  passed = true;
}, 300_000);
