import path from 'node:path';
import express, { type Express } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { pinoHttp } from 'pino-http';
import type { HeartbeatStore } from '../db/ops/heartbeat-store';
import type { WatchdogStore } from '../db/ops/watchdog-store';
import type { PriceStore } from '../db/market/price-store';
import type { LiveStore } from '../db/mint/live-store';
import type { MintReadStore } from '../db/mint/mint-read-store';
import type { PredictionStore } from '../db/mint/prediction-store';
import type { StatsStore } from '../db/mint/stats-store';
import type { LatencyWindow } from '../domain/ops/latency-window';
import type { Logger } from '../platform/logger';
import type { Metrics } from '../platform/metrics';
import { burnRoutes } from './billing/burn-routes';
import { keysRoutes } from './billing/keys-routes';
import { payPageRoutes } from './billing/pay-page-routes';
import { upgradeRoutes, type UpgradeRouteDeps } from './billing/upgrade-routes';
import type { BurnStore } from '../db/billing/burn-store';
import { errorHandler } from './http/error-handler';
import { notImplemented } from './http/not-implemented';
import { nativeCoinPriceRoutes } from './market/native-coin-price-routes';
import type { LiveSnapshotCache } from './mint/live-snapshot-cache';
import { liveRoutes } from './mint/live-routes';
import { mintRoutes } from './mint/mint-routes';
import { statsRoutes } from './mint/stats-routes';
import { docsRoutes } from './ops/docs-routes';
import { healthRoutes } from './ops/health-routes';
import { landingRoutes } from './ops/landing-routes';
import { scopeRoutes, type CorpusSummary } from './ops/scope-routes';
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
  liveStore: LiveStore;
  liveCache: LiveSnapshotCache;
  mintReadStore: MintReadStore;
  predictionStore: PredictionStore;
  statsStore: StatsStore;
  corpusSummary: () => Promise<CorpusSummary>;
  modelVersions: () => Record<string, string>;
  heartbeatIntervalS: number;
  watchdogIntervalS: number;
  priceRefreshIntervalS: number;
  expectedDaemons: readonly string[];
  now: () => Date;
  billing: Omit<UpgradeRouteDeps, 'log' | 'now'> & { burnStore: BurnStore; holderTokenMint: string | null };
};

type RoutedRequest = express.Request & { openapi?: { openApiRoute?: string } };

export function createApp(d: ApiDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', 'loopback');

  // Latency by route template; /api/live also feeds the /api/status window.
  app.use((req, res, next) => {
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const route = (req as RoutedRequest).openapi?.openApiRoute ?? (res.statusCode === 404 ? 'unmatched' : req.path);
      d.metrics.httpDuration.observe({ route, method: req.method, status: String(res.statusCode) }, ms / 1000);
      if (route === '/api/live') d.liveLatency.record(Date.now(), ms);
    });
    next();
  });
  app.use(pinoHttp({ logger: d.log, autoLogging: { ignore: (req) => req.url === '/metrics' } }));

  app.get('/metrics', async (_req, res) => {
    res.type(d.metrics.registry.contentType).send(await d.metrics.registry.metrics());
  });
  app.use(docsRoutes(API_SPEC_PATH));
  app.use(payPageRoutes(d.billing));

  app.use(express.json({ limit: BODY_LIMIT }));
  app.use(
    OpenApiValidator.middleware({
      apiSpec: API_SPEC_PATH,
      // Query and path parameters are always coerced from strings; JSON bodies must carry the right types.
      validateRequests: { allErrors: true, coerceTypes: false },
      validateResponses: d.validateResponses ? { removeAdditional: false } : false,
      // Keys, tiers and quotas are checked by our own middleware so their errors carry documented bodies.
      validateSecurity: false,
      ignorePaths: /^\/(metrics|docs|openapi\.yaml|pay\/)/,
    }),
  );

  app.use(landingRoutes());
  app.use(healthRoutes(d));
  app.use(statusRoutes({ ...d }));
  app.use(nativeCoinPriceRoutes({ priceStore: d.priceStore, refreshIntervalS: d.priceRefreshIntervalS, now: d.now }));
  app.use(scopeRoutes(d));
  app.use(keysRoutes());
  app.use(upgradeRoutes({ ...d.billing, log: d.log, now: d.now }));
  app.use(burnRoutes({ ...d.billing, now: d.now }));
  app.use(liveRoutes({ cache: d.liveCache }));
  app.use(mintRoutes(d));
  app.use(statsRoutes({ statsStore: d.statsStore, cache: d.liveCache, now: d.now }));

  app.use(notImplemented);
  app.use(errorHandler(d.log));
  return app;
}
