import cluster from 'node:cluster';
import type { AddressInfo } from 'node:net';
import { migrateToLatest } from '../db/migrate';
import { createHeartbeatStore } from '../db/ops/heartbeat-store';
import { clusterProcessId, reportMetricsToPrimary, runClusterPrimary } from '../platform/cluster-primary';
import { loadConfig, requireSetting, type Config } from '../platform/config';
import { createDb } from '../platform/db';
import { asDb } from '../db/knex-handle';
import { startHeartbeat } from '../platform/heartbeat';
import { createLogger, throttledDbLog, type Logger } from '../platform/logger';
import { createMetrics } from '../platform/metrics';
import { serveMetrics } from '../platform/metrics-server';
import { listenWhenTold } from '../platform/cluster-port';
import { listenWhenFree } from '../platform/net/listen-when-free';
import { lazyTemporalClient } from '../platform/temporal-connection';
import { createApiContext } from './api-area';
import { createApp } from './app';
import { version } from '../package.json';

/** Composition root of the API process: the shared pieces, then every API area over them. */
async function main() {
  const cfg = loadConfig();
  const log = createLogger(cfg.logLevel, 'api');
  if (cluster.isPrimary && cfg.api.processes > 1) return runPrimary(cfg, log);
  // Requests wait about a second for a connection, then answer 503 (knex's own default is 60 s).
  const db = asDb(createDb(requireSetting(cfg.databaseUrl, 'DATABASE_URL'), cfg.dbPoolMax, { ...cfg.api.db, log: throttledDbLog(log) }));
  // In a cluster the primary has migrated before forking.
  if (cluster.isPrimary) await migrateToLatest(db);
  // Holder signup and payments start workflows. Temporal is reached lazily and with a deadline: the API starts and
  // serves reads while it is down, and those commands answer 503. Without TEMPORAL_ADDRESS they always answer 503.
  const temporal = cfg.temporal.address
    ? {
        client: lazyTemporalClient(cfg.temporal.address, cfg.temporal.namespace, { callTimeoutMs: cfg.api.temporalCallTimeoutMs }),
        taskQueue: cfg.temporal.taskQueue,
      }
    : undefined;
  const processId = clusterProcessId();
  const metrics = createMetrics('api', processId ? { cluster_process: processId } : {});
  const ctx = createApiContext({ cfg, db, log, metrics, version, temporal });
  if (!cfg.access.authEnabled) log.warn('API_AUTH_ENABLED=false: keyed endpoints are served without any key check');
  const app = createApp(ctx);
  const stopBeat = startHeartbeat(createHeartbeatStore(db), 'api', cfg.heartbeatIntervalS, log);
  // While another instance holds the port this one is its hot standby (platform/net/listen-when-free.ts); in a
  // cluster the primary waits for the port and tells its processes when to listen (platform/cluster-port.ts).
  const server = cluster.isWorker
    ? listenWhenTold(app.createServer(), cfg.api.port, cfg.api.host)
    : listenWhenFree(app.createServer(), cfg.api.port, cfg.api.host, {
        onWaiting: () => log.warn({ port: cfg.api.port }, 'api port is taken: standing by, taking it over once it is free'),
      });
  server.once('listening', () => log.info({ url: `http://${cfg.api.host}:${cfg.api.port}` }, 'api listening'));
  server.keepAliveTimeout = 65_000;
  // In a cluster the primary serves every process's metrics, summed; a lone process serves its own.
  if (processId) reportMetricsToPrimary(metrics.registry);
  const metricsServer = processId ? undefined : serveApiMetrics(metrics, cfg, log);
  let stopping = false;
  // SIGINT and SIGTERM may both arrive (a terminal's Ctrl-C reaches a cluster's processes and its primary).
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    log.info('api stopping');
    stopBeat();
    metricsServer?.close();
    server.close(() => void ctx.stop().then(() => Promise.all([db.destroy(), temporal?.client.connection.close()]).then(() => process.exit(0))));
    // Idle keep-alive connections would hold close() open for their whole timeout; busy ones finish first.
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

/** API_PROCESSES > 1: migrate once, then fork the processes that serve (platform/cluster-primary.ts). */
async function runPrimary(cfg: Config, log: Logger) {
  const db = asDb(createDb(requireSetting(cfg.databaseUrl, 'DATABASE_URL'), 2, { log: throttledDbLog(log) }));
  await migrateToLatest(db).finally(() => db.destroy());
  const { stopped } = runClusterPrimary({
    name: 'api',
    processes: cfg.api.processes,
    log,
    metrics: cfg.api.metrics,
    listen: { port: cfg.api.port, host: cfg.api.host },
  });
  await stopped;
  log.info('api stopped');
  process.exit(0);
}

// Metrics on the operator port only (loopback by default), never on the public one.
function serveApiMetrics(metrics: ReturnType<typeof createMetrics>, cfg: Config, log: Logger) {
  const metricsServer = serveMetrics(metrics.registry, cfg.api.metrics.host, cfg.api.metrics.port);
  metricsServer.on('listening', () => {
    const { port } = metricsServer.address() as AddressInfo;
    log.info({ url: `http://${cfg.api.metrics.host}:${port}/metrics` }, 'api metrics listening');
  });
  // A taken operator port (a second API process on the host) costs the metrics, not the API.
  metricsServer.on('error', (err) => log.error({ err: { message: err.message } }, `api metrics not served on ${cfg.api.metrics.host}:${cfg.api.metrics.port}`));
  return metricsServer;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
