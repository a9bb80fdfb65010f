import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { NativeConnection, Runtime, DefaultLogger, type Worker } from '@temporalio/worker';
import { createActivities, type ActivityOverrides } from '../../activities';
import { createMetrics } from '../../platform/metrics';
import { buildWorker } from '../../workers/build-worker';
import { startApi, type ApiOptions, type StartedApi } from './api-harness';
import { areaContext } from './area-context';
import { createTestDatabase } from './test-db';
import { ROOT, readTestEnv } from './test-env';
import type { KnexDb } from '../../db/knex-handle';

let runtimeInstalled = false;

/**
 * A real worker on its own task queue against the run's Temporal server, with the prebuilt workflow bundle. Settings
 * come from `env` as in production; `overrides` replace an area's dependencies (a client with a short timeout).
 */
export async function startWorker(db: KnexDb, o: { env?: Record<string, string>; now?: () => Date; overrides?: ActivityOverrides } = {}) {
  const env = readTestEnv();
  if (!runtimeInstalled) {
    Runtime.install({ logger: new DefaultLogger('ERROR') });
    runtimeInstalled = true;
  }
  // Activities that start workflows (the payment outbox) start them on the queue named in the config.
  const taskQueue = o.env?.TEMPORAL_TASK_QUEUE ?? `test-${randomBytes(4).toString('hex')}`;
  const connection = await Connection.connect({ address: env.temporalAddress });
  const client = new Client({ connection, namespace: 'default' });
  const nativeConnection = await NativeConnection.connect({ address: env.temporalAddress });
  const metrics = createMetrics('worker-test');
  const ctx = {
    ...areaContext(db, { env: { WATCHDOG_DISK_PATH: '/', LIVE_REFRESH_MS: '1000', ...o.env, TEMPORAL_TASK_QUEUE: taskQueue }, now: o.now }),
    temporal: client,
  };
  const worker: Worker = await buildWorker({
    connection: nativeConnection,
    namespace: 'default',
    taskQueue,
    activities: createActivities(ctx, o.overrides).activities,
    metrics,
    workflowBundle: { codePath: env.workflowBundlePath },
  });
  const running = worker.run();
  return {
    client,
    taskQueue,
    metrics,
    worker,
    /** Saves a finished workflow's history (its latest run, or `runId`) under test/replay/histories when RECORD_HISTORIES=1. */
    async maybeRecordHistory(workflowId: string, name: string, runId?: string) {
      if (process.env.RECORD_HISTORIES !== '1') return;
      const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
      const dir = path.join(ROOT, 'test', 'replay', 'histories');
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `${name}.json`), JSON.stringify({ workflowId, history: JSON.parse(historyToJSON(history)) }, null, 1));
    },
    async stop() {
      worker.shutdown();
      await running;
      await nativeConnection.close();
      await connection.close();
    },
  };
}

export const uniqueId = (prefix: string) => `${prefix}-${randomBytes(5).toString('hex')}`;

export type WorkerOptions = NonNullable<Parameters<typeof startWorker>[1]>;
export type StartedWorker = Awaited<ReturnType<typeof startWorker>>;
type TestDatabase = Awaited<ReturnType<typeof createTestDatabase>>;

/**
 * The workflow tests' common ground, beside useApi(): a fresh database and a worker over it (and the API, when
 * `api` options are given), started before the file's tests and stopped after them; `set` hands them to the
 * file's own variables.
 */
export function useWorker(o: { worker?: WorkerOptions }, set: (bed: { t: TestDatabase; w: StartedWorker }) => void): void;
export function useWorker(o: { worker?: WorkerOptions; api: ApiOptions }, set: (bed: { t: TestDatabase; w: StartedWorker; api: StartedApi }) => void): void;
export function useWorker(o: { worker?: WorkerOptions; api?: ApiOptions }, set: (bed: { t: TestDatabase; w: StartedWorker; api: StartedApi }) => void): void {
  let bed: { t: TestDatabase; w?: StartedWorker; api?: StartedApi } | undefined;
  beforeAll(async () => {
    bed = { t: await createTestDatabase() };
    bed.w = await startWorker(bed.t.db, o.worker);
    if (o.api) bed.api = await startApi(bed.t.db, o.api);
    set(bed as { t: TestDatabase; w: StartedWorker; api: StartedApi });
  });
  afterAll(async () => {
    await bed?.api?.close();
    await bed?.w?.stop();
    await bed?.t.drop();
  });
}
