import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { startDaemon } from '../../scripts/lib/daemon-process';
import { waitFor } from '../../scripts/lib/run';

export type LoadResult = { rps: number; p50: number; p99: number; status: string };

/** The API as its own process, as in production, so the load generator does not share its event loop. */
export async function spawnApi(databaseUrl: string, port: number, env: Record<string, string> = {}) {
  const api = startDaemon(path.join('api', 'server.ts'), {
    DATABASE_URL: databaseUrl,
    API_PORT: String(port),
    NODE_ENV: 'production',
    DEMO_MODE: 'true',
    ...env,
  });
  const base = `http://127.0.0.1:${port}`;
  await waitFor('bench API', async () => (await fetch(`${base}/api/health`)).status < 500, 60_000);
  return { base, stop: api.kill };
}

/** autocannon on loopback after a one-second warm-up: mean requests/s, p50/p99 latency (ms), statuses seen. */
export async function measure(url: string, o: { connections: number; durationS: number; headers?: Record<string, string> }): Promise<LoadResult> {
  await autocannon({ url, connections: 4, duration: 1, headers: o.headers });
  const r = await autocannon({ url, connections: o.connections, duration: o.durationS, headers: o.headers });
  const status = Object.entries(r.statusCodeStats ?? {})
    .map(([code, s]) => `${code}×${(s as { count: number }).count}`)
    .join(' ');
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, status };
}

/** Figures are only comparable on the same machine: every benchmark prints which one it ran on. */
export function machineLine(): string {
  const cpu = os.cpus();
  return `${cpu.length} cores (${cpu[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB`;
}
