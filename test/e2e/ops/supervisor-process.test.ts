import path from 'node:path';
import { waitFor } from '../../../scripts/lib/run';
import { childProcesses, isAlive } from '../../../scripts/lib/process-table';
import { startDaemon } from '../../../scripts/lib/daemon-process';

/**
 * The supervisor with real OS processes (test/support/supervisor-driver.ts): a SIGKILLed child is restarted
 * while the others keep running, a child that keeps dying is reported as a crash loop and still retried, and
 * SIGTERM stops everything, the higher layer before the lower one.
 */
const DRIVER = path.join('test', 'support', 'supervisor-driver.ts');
let driver: ReturnType<typeof startDaemon> | undefined;
const seen = new Set<number>();

afterAll(async () => {
  await driver?.kill();
  for (const pid of seen) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
});

/** The pid of the running child named `name` (the driver's child whose program prints that name). */
function pidOf(name: string): number | undefined {
  const p = childProcesses(driver!.child.pid!).find((c) => c.cmdline.includes(`const name = "${name}"`));
  if (p) seen.add(p.pid);
  return p?.pid;
}
const lines = () => driver!.output().split('\n');
const count = (re: RegExp) => lines().filter((l) => re.test(l)).length;

it('restarts a killed child, keeps the others, reports a crash loop and stops everything in order', async () => {
  driver = startDaemon(DRIVER, {});
  await waitFor('the driver to start its services', async () => /crashy started/.test(driver!.output()), 30_000);
  const [store, alpha, beta] = [pidOf('store'), pidOf('alpha'), pidOf('beta')];
  expect([store, alpha, beta].every((p) => p !== undefined)).toBe(true);
  expect(driver.output()).toContain(`alpha started (pid ${alpha})`);

  process.kill(alpha!, 'SIGKILL');
  await waitFor('alpha to come back', async () => /alpha is back/.test(driver!.output()), 10_000);
  expect(driver.output()).toMatch(/alpha exited \(SIGKILL\) after [\d.]+ s; restarting in 0\.2 s/);
  const alpha2 = pidOf('alpha');
  expect(alpha2).toBeDefined();
  expect(alpha2).not.toBe(alpha);
  expect(driver.output()).toContain(`alpha is back (pid ${alpha2})`);
  // The others were left alone.
  expect([isAlive(store!), isAlive(beta!), pidOf('beta'), pidOf('store')]).toEqual([true, true, beta, store]);
  expect(driver.output()).not.toMatch(/(beta|store) exited/);

  // crashy exits with code 3 each time: a loud crash-loop report with its last output, then slower retries.
  await waitFor('the crash-loop report', async () => /crashy is crash-looping/.test(driver!.output()), 15_000);
  expect(driver.output()).toMatch(/!! crashy is crash-looping: 3 exits within 30 s; it exited \(code 3\)\. Retrying in 1\.5 s, and on until it stays up\./);
  expect(driver.output()).toMatch(/Its last output:\n( {3}.*\n)* {3}crashy: cannot reach the store/);
  // Not given up: it is started again after the report, dies again, and is reported again.
  await waitFor('crashy to be retried after the report', async () => count(/crashy is crash-looping/) >= 2, 10_000);

  driver.child.kill('SIGTERM');
  await waitFor('the driver to stop', async () => driver!.child.exitCode !== null, 20_000);
  expect(driver.child.exitCode).toBe(0);
  for (const pid of seen) expect([pid, isAlive(pid)]).toEqual([pid, false]);
  const order = lines().filter((l) => /^(alpha|beta|store) got SIGTERM$/.test(l));
  expect(order.slice(0, 2).sort()).toEqual(['alpha got SIGTERM', 'beta got SIGTERM']);
  expect(order.at(-1)).toBe('store got SIGTERM');
  expect(lines().indexOf('• stopping alpha, beta, crashy …')).toBeLessThan(lines().indexOf('• stopping store …'));
}, 60_000);
