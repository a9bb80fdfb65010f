import { migrateToLatest } from '../db/migrate';
import { createPaymentStarter, paymentTiming } from '../activities/billing/payment-starter';
import { loadConfig, publicBaseUrl, requireSetting } from '../platform/config';
import { createDb } from '../platform/db';
import { startHeartbeat } from '../platform/heartbeat';
import { createLogger } from '../platform/logger';
import { createMetrics } from '../platform/metrics';
import { connectTemporalClient } from '../platform/temporal-connection';
import { createHolderBalanceClient } from '../clients/solana/holder-balance-client';
import { buildApiDeps } from './api-deps';
import { createApp } from './app';
import { version } from '../package.json';

/** Composition root of the API process. */
async function main() {
  const cfg = loadConfig();
  const log = createLogger(cfg.logLevel, 'api');
  const db = createDb(requireSetting(cfg.databaseUrl, 'DATABASE_URL'), cfg.dbPoolMax);
  await migrateToLatest(db);
  // Holder signup runs as workflows; without TEMPORAL_ADDRESS its endpoints answer 503 and the rest still serves.
  const temporal = cfg.temporal.address ? { client: await connectTemporalClient(cfg.temporal.address, cfg.temporal.namespace), taskQueue: cfg.temporal.taskQueue } : undefined;
  const deps = buildApiDeps(db, {
    log,
    metrics: createMetrics('api'),
    validateResponses: cfg.api.validateResponses,
    version,
    heartbeatIntervalS: cfg.heartbeatIntervalS,
    watchdogIntervalS: cfg.watchdog.intervalS,
    priceRefreshIntervalS: cfg.price.refreshIntervalS,
    conditionsRefreshS: cfg.conditions.refreshS,
    conditionsMinHistoryH: cfg.conditions.minHistoryH,
    expectedDaemons: cfg.expectedDaemons,
    modelRefitEveryS: cfg.mint.modelRefitEveryS,
    accuracyRefreshS: cfg.accuracy.refreshIntervalS,
    access: {
      authEnabled: cfg.access.authEnabled,
      keyRequiredAfter: cfg.access.keyRequiredAfter,
      keyCacheTtlMs: cfg.access.keyCacheTtlMs,
      holderThresholds: cfg.access.holder.thresholds,
    },
    publicPostLimits: cfg.access.publicPostLimits,
    holderBalances: createHolderBalanceClient({ rpcUrl: cfg.access.holder.rpcUrl, mint: cfg.access.holder.mint }),
    walletSignup: { ttlS: cfg.access.walletSignupTtlS, keyRevealSecret: cfg.access.keyRevealSecret, publicBaseUrl: cfg.api.publicBaseUrl },
    temporal,
    billing: {
      treasury: cfg.billing.treasury,
      intentWindowS: cfg.billing.intentWindowS,
      publicBaseUrl: publicBaseUrl(cfg),
      holderTokenMint: cfg.access.holder.mint,
      tokenPayment: cfg.billing.tokensPerSol ? { tokensPerSol: cfg.billing.tokensPerSol, rpcUrl: cfg.access.holder.rpcUrl } : undefined,
      // The worker's outbox sweep starts what the API could not (no Temporal here, or a start that timed out).
      paymentStarter: temporal && createPaymentStarter(temporal.client, temporal.taskQueue, paymentTiming(cfg.billing), { timeoutMs: 3000 }),
    },
  });
  if (!cfg.access.authEnabled) log.warn('API_AUTH_ENABLED=false: keyed endpoints are served without any key check');
  const app = createApp(deps);
  const stopBeat = startHeartbeat(deps.heartbeatStore, 'api', cfg.heartbeatIntervalS, log);
  const server = app.listen(cfg.api.port, cfg.api.host, () => log.info({ url: `http://${cfg.api.host}:${cfg.api.port}` }, 'api listening'));
  server.keepAliveTimeout = 65_000;

  const shutdown = () => {
    log.info('api stopping');
    stopBeat();
    server.close(() => void Promise.all([db.destroy(), temporal?.client.connection.close()]).then(() => process.exit(0)));
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
