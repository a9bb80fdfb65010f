import { NativeConnection } from '@temporalio/worker';
import { createActivities } from '../activities';
import { createHeartbeatStore } from '../db/ops/heartbeat-store';
import { migrateToLatest } from '../db/migrate';
import { loadConfig, requireSetting } from '../platform/config';
import { createDb } from '../platform/db';
import { asDb } from '../db/knex-handle';
import { startHeartbeat } from '../platform/heartbeat';
import { createLogger, throttledDbLog } from '../platform/logger';
import { createMetrics } from '../platform/metrics';
import { serveMetrics } from '../platform/metrics-server';
import { connectTemporalClient } from '../platform/temporal-connection';
import { buildWorker } from './build-worker';
import { cachedWorkflowBundle } from './workflow-bundle-cache';
import path from 'node:path';
import { scheduleSpecs } from './schedules';
import { ensureSchedules } from '../workflows/schedule-starter';
import { installTemporalRuntimeLogger } from './temporal-runtime-logger';
import { createLiveConsumers } from '../activities/live/live-consumers';
import { createReadPorts } from '../db/read-ports';

/** Composition root of the worker process: every activity area over one context, the Schedules, then polls Temporal. */
async function main() {
  const cfg = loadConfig();
  const log = createLogger(cfg.logLevel, 'worker');
  installTemporalRuntimeLogger(log);
  const db = asDb(createDb(requireSetting(cfg.databaseUrl, 'DATABASE_URL'), cfg.dbPoolMax, { log: throttledDbLog(log) }));
  await migrateToLatest(db);
  const address = requireSetting(cfg.temporal.address, 'TEMPORAL_ADDRESS');
  const client = await connectTemporalClient(address, cfg.temporal.namespace);
  const connection = await NativeConnection.connect({ address });
  const metrics = createMetrics('worker');

  const areas = createActivities({
    cfg,
    db,
    log,
    temporal: client,
    now: () => new Date(),
    liveConsumers: createLiveConsumers(),
    readPorts: createReadPorts(db, cfg),
  });
  const workflowBundle = await cachedWorkflowBundle(path.resolve(cfg.dataDir, 'workflow-bundles'));
  const worker = await buildWorker({
    connection,
    namespace: cfg.temporal.namespace,
    taskQueue: cfg.temporal.taskQueue,
    activities: areas.activities,
    metrics,
    workflowBundle,
    tuning: cfg.worker,
  });
  await ensureSchedules(client, cfg.temporal.taskQueue, scheduleSpecs(cfg), true);
  const stopAreas = await areas.start();
  const stopBeat = startHeartbeat(createHeartbeatStore(db), 'worker', cfg.heartbeatIntervalS, log);
  const metricsServer = serveMetrics(metrics.registry, cfg.api.host, cfg.workerMetricsPort);
  log.info({ taskQueue: cfg.temporal.taskQueue, address, metricsPort: cfg.workerMetricsPort, tuning: cfg.worker }, 'worker started');

  // Worker.run() resolves after SIGINT/SIGTERM once in-flight tasks have finished.
  await worker.run();
  stopBeat();
  stopAreas();
  metricsServer.close();
  await connection.close();
  await client.connection.close();
  await db.destroy();
  log.info('worker stopped');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
