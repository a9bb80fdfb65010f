import fs from 'node:fs';
import path from 'node:path';
import express, { type Express, type RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { pinoHttp } from 'pino-http';
import YAML from 'yaml';
import type { HeartbeatStore } from '../db/ops/heartbeat-store';
import type { WatchdogStore } from '../db/ops/watchdog-store';
import type { MarketConditionsStore } from '../db/market/market-conditions-store';
import type { PriceStore } from '../db/market/price-store';
import type { LiveStore } from '../db/mint/live-store';
import type { MintReadStore } from '../db/mint/mint-read-store';
import type { LiveReadModel } from '../db/mint/live-read-model';
import type { PredictionStore } from '../db/mint/prediction-store';
import type { CreatorStore } from '../db/mint/creator-store';
import type { AccuracyStore } from '../db/accuracy/accuracy-store';
import type { GateStore } from '../db/accuracy/gate-store';
import type { ModelFitStore } from '../db/accuracy/model-fit-store';
import type { StatsStore } from '../db/mint/stats-store';
import type { LatencyWindow } from '../domain/ops/latency-window';
import { createLogThrottle, type Logger } from '../platform/logger';
import type { Metrics } from '../platform/metrics';
import { accuracyRoutes } from './accuracy/accuracy-routes';
import type { ApiKeyStore } from '../db/access/api-key-store';
import type { UsageStore } from '../db/access/usage-store';
import type { KeyCache } from './access/key-cache';
import type { QuotaCounter } from './access/quota-counter';
import { keyAuth, type AccessSettings } from './access/key-auth';
import { publicPostLimit } from './access/public-post-limit';
import type { PublicPostLimiter } from '../db/access/public-post-limiter';
import { meRoutes } from './access/me-routes';
import { walletLinkRoutes } from './access/wallet-link-routes';
import { walletSignupRoutes, type WalletSignupSettings } from './access/wallet-signup-routes';
import type { Client as TemporalClient } from '@temporalio/client';
import type { WalletLinkStore } from '../db/access/wallet-link-store';
import type { HolderBalanceClient } from '../clients/solana/holder-balance-client';
import { createWalletSignupStarter } from '../workflows/access/wallet-signup-starter';
import { burnRoutes } from './billing/burn-routes';
import { keysRoutes } from './billing/keys-routes';
import { payPageRoutes } from './billing/pay-page-routes';
import { upgradeRoutes, type UpgradeRouteDeps } from './billing/upgrade-routes';
import type { BurnStore } from '../db/billing/burn-store';
import { refuseDeepJson } from './http/body-errors';
import { errorHandler } from './http/error-handler';
import { headAsGet, notFoundJson, requestMethod } from './http/http-methods';
import { notImplemented } from './http/not-implemented';
import { routeLabel } from './http/route-label';
import { numericParameters, strictNumbers } from './http/strict-numbers';
import { createDependencyProbe } from './ops/dependency-probe';
import { conditionsRoutes } from './market/conditions-routes';
import { nativeCoinPriceRoutes } from './market/native-coin-price-routes';
import type { LiveSnapshotCache } from './mint/live-snapshot-cache';
import { liveRoutes } from './mint/live-routes';
import { mintRoutes } from './mint/mint-routes';
import { runnersRoutes } from './mint/runners-routes';
import { statsRoutes } from './mint/stats-routes';
import { docsRoutes } from './ops/docs-routes';
import { healthRoutes } from './ops/health-routes';
import { landingRoutes } from './ops/landing-routes';
import { scopeRoutes } from './ops/scope-routes';
import type { CorpusSummary } from '../db/mint/corpus-store';
import { statusRoutes } from './ops/status-routes';

export const API_SPEC_PATH = path.resolve(__dirname, '..', 'openapi.yaml');
/** Bodies are small JSON objects; anything larger is refused before parsing. */
const BODY_LIMIT = '32kb';

export type ApiDeps = {
  log: Logger;
  metrics: Metrics;
  validateResponses: boolean;
  version: string;
  startedAt: Date;
  liveLatency: LatencyWindow;
  heartbeatStore: HeartbeatStore;
  watchdogStore: WatchdogStore;
  priceStore: PriceStore;
  marketConditionsStore: MarketConditionsStore;
  conditionsRefreshS: number;
  conditionsMinHistoryH: number;
  liveStore: LiveStore;
  liveCache: LiveSnapshotCache;
  liveDelayedCache: LiveSnapshotCache;
  /** A live snapshot older than this beyond its promised delay is served marked stale. */
  liveStaleAfterS: number;
  mintReadStore: MintReadStore;
  readModel: LiveReadModel;
  predictionStore: PredictionStore;
  statsStore: StatsStore;
  creatorStore: CreatorStore;
  gateStore: GateStore;
  accuracyStore: AccuracyStore;
  modelFitStore: ModelFitStore;
  /** The worker's model refit period (calibration freshness is judged against it). */
  modelRefitEveryS: number;
  accuracyRefreshS: number;
  corpusSummary: () => Promise<CorpusSummary>;
  /** The models being published now, by `<predictor>@<age>`. */
  modelVersions: () => Promise<Record<string, string>>;
  heartbeatIntervalS: number;
  watchdogIntervalS: number;
  priceRefreshIntervalS: number;
  expectedDaemons: readonly string[];
  apiKeyStore: ApiKeyStore;
  usageStore: UsageStore;
  keyCache: KeyCache;
  quotaCounter: QuotaCounter;
  access: AccessSettings;
  publicPostLimiter: PublicPostLimiter;
  walletLinkStore: WalletLinkStore;
  holderBalances: HolderBalanceClient;
  walletSignup: WalletSignupSettings;
  /** Commands that run as workflows (holder signup); absent when the process runs without Temporal. */
  temporal: { client: TemporalClient; taskQueue: string } | undefined;
  now: () => Date;
  billing: Omit<UpgradeRouteDeps, 'log' | 'now'> & { burnStore: BurnStore; holderTokenMint: string | null };
};

/** The validator's middlewares with `extra` placed right before its schema check (after it has matched the operation). */
function beforeSchemaCheck(validator: RequestHandler[], extra: RequestHandler): RequestHandler[] {
  const at = validator.findIndex((m) => m.name === 'requestMiddleware');
  if (at < 0) throw new Error('express-openapi-validator: requestMiddleware not found; check strictNumbers against this version');
  return [...validator.slice(0, at), extra, ...validator.slice(at)];
}

export function createApp(d: ApiDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', 'loopback');

  // Latency by route template (bounded labels: see route-label.ts); /api/live also feeds the /api/status window.
  app.use((req, res, next) => {
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const route = routeLabel(req, res);
      d.metrics.httpDuration.observe({ route, method: requestMethod(req, res), status: String(res.statusCode) }, ms / 1000);
      if (route === '/api/live') d.liveLatency.record(Date.now(), ms);
    });
    next();
  });
  app.use(
    pinoHttp({
      logger: d.log,
      // A 503 is a dependency outage, logged once per cause by the error handler: its access line carries no stack.
      customLogLevel: (_req, res, err) => (err || (res.statusCode >= 500 && res.statusCode !== 503) ? 'error' : 'info'),
      customErrorObject: (_req, res, _err, val) => (res.statusCode === 503 ? { res: val.res, responseTime: val.responseTime } : val),
    }),
  );
  app.use(headAsGet);

  app.use(docsRoutes(API_SPEC_PATH));
  app.use(payPageRoutes(d.billing));

  app.use(express.json({ limit: BODY_LIMIT, verify: refuseDeepJson }));
  const validator = OpenApiValidator.middleware({
    apiSpec: API_SPEC_PATH,
    // Query and path parameters are always coerced from strings; JSON bodies must carry the right types.
    validateRequests: { allErrors: true, coerceTypes: false },
    validateResponses: d.validateResponses ? { removeAdditional: false } : false,
    // Keys, tiers and quotas are checked by our own middleware so their errors carry documented bodies.
    validateSecurity: false,
    ignorePaths: /^\/(docs|openapi\.yaml|pay\/|livez$)/,
  });
  app.use(beforeSchemaCheck(validator, strictNumbers(numericParameters(YAML.parse(fs.readFileSync(API_SPEC_PATH, 'utf8'))))));

  // Keys, tiers and quotas for every operation openapi.yaml marks as keyed; public operations pass through.
  app.use(keyAuth({ keys: d.keyCache, usage: d.usageStore, counter: d.quotaCounter, settings: d.access, now: d.now }));
  // Rate limits for unauthenticated POSTs (upgrade, holder signup), which write durable rows for anyone.
  app.use(publicPostLimit({ limiter: d.publicPostLimiter, now: d.now }));

  app.use(landingRoutes());
  const temporalProbe = d.temporal && createDependencyProbe(() => d.temporal!.client.workflowService.getSystemInfo({}), { ttlMs: 2000, timeoutMs: 2000 });
  app.use(healthRoutes({ ...d, temporalProbe }));
  app.use(statusRoutes({ ...d }));
  app.use(nativeCoinPriceRoutes({ priceStore: d.priceStore, refreshIntervalS: d.priceRefreshIntervalS, now: d.now }));
  app.use(scopeRoutes(d));
  app.use(keysRoutes());
  app.use(meRoutes({ apiKeyStore: d.apiKeyStore, settings: d.access, now: d.now }));
  app.use(walletLinkRoutes({ apiKeyStore: d.apiKeyStore, holderBalances: d.holderBalances, settings: d.access, now: d.now }));
  app.use(walletSignupRoutes({ signups: d.temporal && createWalletSignupStarter(d.temporal.client, d.temporal.taskQueue), store: d.walletLinkStore, settings: d.walletSignup, now: d.now }));
  app.use(upgradeRoutes({ ...d.billing, log: d.log, now: d.now }));
  app.use(burnRoutes({ ...d.billing, now: d.now }));
  app.use(liveRoutes({ cache: d.liveCache, delayedCache: d.liveDelayedCache, staleAfterS: d.liveStaleAfterS, now: d.now }));
  app.use(mintRoutes(d));
  app.use(conditionsRoutes(d));
  app.use(runnersRoutes({ cache: d.liveCache }));
  app.use(accuracyRoutes(d));
  app.use(statsRoutes({ statsStore: d.statsStore, cache: d.liveCache, now: d.now }));

  app.use(notImplemented);
  app.use(notFoundJson);
  app.use(
    errorHandler({
      log: d.log,
      throttle: createLogThrottle(),
      onDependencyFailure: (f) => f.dependency === 'workflow service' && temporalProbe?.reportDown(f.reason),
    }),
  );
  return app;
}
