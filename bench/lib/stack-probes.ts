import os from 'node:os';
import { Connection } from '@temporalio/client';
import { Client } from 'pg';
import type { OwnStack } from '../../scripts/lib/own-stack';
import { childProcesses, isAlive, type SupervisedName } from '../../scripts/lib/process-table';

/**
 * "Is it back?" for each process of a running stack, as a user of it would see it: the API answers, the worker
 * polls (its metrics endpoint comes up only then) and has beaten, the ingest has beaten, Postgres takes a query,
 * Temporal answers an RPC. Each probe opens its own short-lived connection, so a probe never waits on a pool that
 * is still holding sockets to a process that died.
 */
export type Probe = (pid: number) => Promise<boolean>;

const timeout = () => AbortSignal.timeout(1500);

export async function pgQuery<T>(stack: OwnStack, sql: string, params: unknown[] = []): Promise<T[]> {
  const c = new Client({ connectionString: stack.pgUrl('launchpad'), connectionTimeoutMillis: 1500, query_timeout: 5000 });
  c.on('error', () => undefined);
  try {
    await c.connect();
    return (await c.query(sql, params)).rows as T[];
  } finally {
    await c.end().catch(() => undefined);
  }
}

/** Whether the daemon with this pid has written its heartbeat (instance `<hostname>:<pid>`, platform/heartbeat.ts). */
const hasBeaten = async (stack: OwnStack, name: string, pid: number) =>
  (await pgQuery(stack, 'SELECT 1 FROM daemon_heartbeats WHERE name = $1 AND instance = $2', [name, `${os.hostname()}:${pid}`])).length > 0;

/** Whether the API instance with this primary pid has loaded: its serving processes (or itself, alone) have beaten. */
async function standbyLoaded(stack: OwnStack, pid: number): Promise<boolean> {
  if (!isAlive(pid)) return false;
  const serving = childProcesses(pid).map((c) => c.pid);
  for (const p of serving.length ? serving : [pid]) if (!(await hasBeaten(stack, 'api', p))) return false;
  return true;
}

export function probes(stack: OwnStack): Record<SupervisedName, Probe> {
  return {
    // The API answers on its port (whichever instance holds it) and this instance has loaded (both `api` and its
    // hot standby run the same program; either may be the one serving).
    api: async (pid) => (await fetch(`${stack.apiUrl}/api/health`, { signal: timeout() })).status > 0 && (await standbyLoaded(stack, pid)),
    // The standby serves nothing until it holds the port: back once it has loaded, which its serving processes (or,
    // alone, itself) say by their first heartbeat; a standby still loading could not take the port over.
    'api-standby': async (pid) => standbyLoaded(stack, pid),
    worker: async (pid) => (await fetch(stack.workerMetricsUrl, { signal: timeout() })).ok && (await hasBeaten(stack, 'worker', pid)),
    ingest: async (pid) => hasBeaten(stack, 'ingest', pid),
    postgres: async () => (await pgQuery<{ one: number }>(stack, 'SELECT 1 AS one'))[0]?.one === 1,
    temporal: async () => {
      const c = await Connection.connect({ address: stack.temporalAddress, connectTimeout: 1500 });
      try {
        await c.workflowService.getSystemInfo({});
        return true;
      } finally {
        await c.close();
      }
    },
  };
}

/** The newest mint the ingest wrote: it is "inserting again" once this moves past the time it was killed. */
export async function newestIngestedAt(stack: OwnStack): Promise<number> {
  const [r] = await pgQuery<{ at: Date | null }>(stack, 'SELECT max(ingested_at) AS at FROM mints');
  return r?.at ? r.at.getTime() : 0;
}
