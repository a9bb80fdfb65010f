import { migrateToLatest } from '../db/migrate';
import { loadConfig, requireSetting } from '../platform/config';
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
  const deps = buildApiDeps(db, {
    log,
    metrics: createMetrics('api'),
    validateResponses: cfg.api.validateResponses,
    version,
    heartbeatIntervalS: cfg.heartbeatIntervalS,
    watchdogIntervalS: cfg.watchdog.intervalS,
    priceRefreshIntervalS: cfg.price.refreshIntervalS,
    expectedDaemons: cfg.expectedDaemons,
    modelRefitEveryS: cfg.mint.modelRefitEveryS,
    accuracyRefreshS: cfg.accuracy.refreshIntervalS,
  });
  const app = createApp(deps);
  const stopBeat = startHeartbeat(deps.heartbeatStore, 'api', cfg.heartbeatIntervalS, log);
  const server = app.listen(cfg.api.port, cfg.api.host, () => log.info({ url: `http://${cfg.api.host}:${cfg.api.port}` }, 'api listening'));
  server.keepAliveTimeout = 65_000;

  const shutdown = () => {
    log.info('api stopping');
    stopBeat();
    server.close(() => void db.destroy().then(() => process.exit(0)));
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
