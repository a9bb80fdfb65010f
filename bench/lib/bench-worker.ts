import fs from 'node:fs';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { startDaemon } from '../../scripts/lib/daemon-process';
import { freePort, startLocalTemporal } from '../../scripts/lib/local-temporal';
import { waitFor } from '../../scripts/lib/run';
import { LIVE_PROJECTOR_WORKFLOW_ID } from '../../workflows/live/live-projector-contract';

/**
 * The real worker process (workers/main-worker.ts) against its own Temporal dev server (data under `workDir`, wiped
 * first), ready once the live projector it starts is running; with a Temporal client for the benchmark.
 */
export async function startBenchWorker(o: { databaseUrl: string; workDir: string; taskQueue: string; env?: Record<string, string> }) {
  fs.mkdirSync(o.workDir, { recursive: true });
  for (const f of fs.readdirSync(o.workDir).filter((f) => f.startsWith('temporal.db'))) fs.rmSync(path.join(o.workDir, f));
  const temporal = await startLocalTemporal({
    port: await freePort(),
    dbFile: path.join(o.workDir, 'temporal.db'),
    logFile: path.join(o.workDir, 'temporal.log'),
  });
  const worker = startDaemon('workers/main-worker.ts', {
    DATABASE_URL: o.databaseUrl,
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_TASK_QUEUE: o.taskQueue,
    WORKER_METRICS_PORT: String(await freePort()),
    LOG_LEVEL: 'warn',
    EXPECTED_DAEMONS: 'worker',
    PRICE_SOURCE_URL: 'http://127.0.0.1:9/unreachable',
    ...o.env,
  });
  const connection = await Connection.connect({ address: temporal.address });
  const client = new Client({ connection, namespace: 'default' });
  await waitFor(
    'the live projector',
    async () => (await client.workflow.getHandle(LIVE_PROJECTOR_WORKFLOW_ID).describe()).status.name === 'RUNNING',
    180_000,
    () => (worker.child.exitCode !== null ? `the worker exited: ${worker.output().slice(-2000)}` : undefined),
  );
  return {
    client,
    stop: async () => {
      await worker.kill();
      await connection.close();
      await temporal.stop();
    },
  };
}
