import { freePort } from '../../../scripts/lib/local-temporal';
import { isAlive } from '../../../scripts/lib/process-table';
import { sleep, waitFor } from '../../../scripts/lib/run';
import { nodeEntryService, type RunningService } from '../../../scripts/lib/supervised-child';
import { writeEmptyLiveSnapshots } from '../../support/access-fixtures';
import { clusterWorkerPids, scrape, sampleValue } from '../../support/cluster-probe';
import { createTestDatabase } from '../../support/test-db';
import { typedApi } from '../../support/typed-api';

/**
 * The API as `npm start`'s supervisor runs it (node with tsx as a loader, stopped with SIGINT), with
 * API_PROCESSES=2: a dead process is forked again while the other serves, the primary's death takes its processes
 * with it (so the supervisor restarts the API whole, on a free port), and a stop ends every process.
 */
let t: Awaited<ReturnType<typeof createTestDatabase>>;
const started: RunningService[] = [];

beforeAll(async () => {
  t = await createTestDatabase();
  await writeEmptyLiveSnapshots(t.db, new Date());
});
afterAll(async () => {
  await Promise.all(started.map((s) => s.stop()));
  await t.drop();
});

async function startCluster() {
  const [port, metricsPort] = [await freePort(), await freePort()];
  const env = {
    ...process.env,
    DATABASE_URL: t.url,
    API_PROCESSES: '2',
    API_HOST: '127.0.0.1',
    API_PORT: String(port),
    API_METRICS_PORT: String(metricsPort),
    LOG_LEVEL: 'fatal',
  };
  const api = nodeEntryService('api/server.ts', env, { echo: false });
  started.push(api);
  const metrics = async () => scrape(`http://127.0.0.1:${metricsPort}/metrics`);
  await waitFor('two API processes listening', async () => sampleValue(await metrics(), 'cluster_processes_listening') === 2, 90_000);
  return { api, url: `http://127.0.0.1:${port}`, metrics };
}

describe('API_PROCESSES=2 under supervision', () => {
  it('forks a killed process again while the other keeps serving; the primary killed takes its processes with it', async () => {
    const c = await startCluster();
    const [victim, survivor] = clusterWorkerPids(c.api.pid!);
    expect([victim, survivor].every(Boolean)).toBe(true);
    process.kill(victim!, 'SIGKILL');
    // While one process is down (its restart waits 0.5 s at least), every request is answered by the other.
    const http = typedApi(c.url);
    const during = await Promise.all(Array.from({ length: 20 }, () => http.GET('/api/health')));
    expect(during.map((r) => r.response.status)).toEqual(Array(20).fill(200));
    await waitFor('the killed process forked again', async () => sampleValue(await c.metrics(), 'cluster_process_restarts_total') === 1, 60_000);
    await waitFor('two processes listening again', async () => sampleValue(await c.metrics(), 'cluster_processes_listening') === 2, 60_000);
    const now = clusterWorkerPids(c.api.pid!);
    expect(now).toHaveLength(2);
    expect(now).toContain(survivor);
    expect(now).not.toContain(victim);

    process.kill(c.api.pid!, 'SIGKILL');
    await c.api.exited;
    // Without their primary the processes exit (their IPC channel closed): nothing keeps holding the port.
    await waitFor('the orphaned processes gone', async () => now.every((p) => !isAlive(p)), 15_000);
    await expect(fetch(`${c.url}/livez`)).rejects.toThrow();
  }, 180_000);

  it('stops every process on SIGINT, as the supervisor stops it, and exits cleanly', async () => {
    const c = await startCluster();
    const pids = clusterWorkerPids(c.api.pid!);
    expect(pids).toHaveLength(2);
    const t0 = Date.now();
    await c.api.stop();
    expect(await c.api.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect(pids.filter(isAlive)).toEqual([]);
    await sleep(100);
    await expect(fetch(`${c.url}/livez`)).rejects.toThrow();
  }, 180_000);
});
