import { migrateToLatest } from '../db/migrate';
import { createPaymentStarter, paymentTiming } from '../activities/billing/payment-starter';
import { loadConfig, publicBaseUrl, requireSetting } from '../platform/config';
import { Client, Connection } from '@temporalio/client';
import { createDb } from '../platform/db';
import { startHeartbeat } from '../platform/heartbeat';
import { createLogger } from '../platform/logger';
import { createMetrics } from '../platform/metrics';
import { buildApiDeps } from './api-deps';
import { createApp } from './app';
import { version } from '../package.json';

/** Composition root of the API process. */
async function main() {
  const cfg = loadConfig();
  const log = createLogger(cfg.logLevel, 'api');
  const db = createDb(requireSetting(cfg.databaseUrl, 'DATABASE_URL'), cfg.dbPoolMax);
  await migrateToLatest(db);
  // Commands go through Temporal: the API starts payment workflows. The connection is lazy so the API serves while
  // Temporal is still starting or down; the worker's outbox sweep starts what the API could not.
  const temporal = new Client({ connection: Connection.lazy({ address: requireSetting(cfg.temporal.address, 'TEMPORAL_ADDRESS') }), namespace: cfg.temporal.namespace });
  const deps = buildApiDeps(db, {
    log,
    metrics: createMetrics('api'),
    validateResponses: cfg.api.validateResponses,
    version,
    heartbeatIntervalS: cfg.heartbeatIntervalS,
    watchdogIntervalS: cfg.watchdog.intervalS,
    priceRefreshIntervalS: cfg.price.refreshIntervalS,
    expectedDaemons: cfg.expectedDaemons,
    billing: {
      treasury: cfg.billing.treasury,
      intentWindowS: cfg.billing.intentWindowS,
      publicBaseUrl: publicBaseUrl(cfg),
      holderTokenMint: cfg.billing.holderTokenMint,
      paymentStarter: createPaymentStarter(temporal, cfg.temporal.taskQueue, paymentTiming(cfg.billing), { timeoutMs: 3000 }),
    },
  });
  const app = createApp(deps);
  const stopBeat = startHeartbeat(deps.heartbeatStore, 'api', cfg.heartbeatIntervalS, log);
  const server = app.listen(cfg.api.port, cfg.api.host, () => log.info({ url: `http://${cfg.api.host}:${cfg.api.port}` }, 'api listening'));
  server.keepAliveTimeout = 65_000;

  const shutdown = () => {
    log.info('api stopping');
    stopBeat();
    server.close(() => void Promise.all([db.destroy(), temporal.connection.close()]).then(() => process.exit(0)));
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
