import fs from 'node:fs';
import express, { type Express, type RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { pinoHttp } from 'pino-http';
import YAML from 'yaml';
import { createLogThrottle } from '../platform/logger';
import { accessApi } from './access';
import { accuracyApi } from './accuracy';
import { buildApiAreas, type ApiAreaOverrides, type ApiContext } from './api-area';
import { API_SPEC_PATH } from './api-spec';
import { billingApi } from './billing';
import { refuseDeepJson } from './http/body-errors';
import { errorHandler } from './http/error-handler';
import { headAsGet, notFoundJson, requestMethod } from './http/http-methods';
import { notImplemented } from './http/not-implemented';
import { routeLabel } from './http/route-label';
import { numericParameters, strictNumbers } from './http/strict-numbers';
import { marketApi } from './market';
import { mintApi } from './mint';
import { opsApi } from './ops';
import { signalsApi } from './signals';
import { walletsApi } from './wallets';

/** Every area of the API (api/<area>/index.ts); a new area adds its own here. */
export const API_AREAS = [opsApi, marketApi, mintApi, accuracyApi, accessApi, billingApi, walletsApi, signalsApi] as const;

export type ApiOverrides = ApiAreaOverrides<typeof API_AREAS>;

/** Bodies are small JSON objects; anything larger is refused before parsing. */
const BODY_LIMIT = '32kb';

/** The validator's middlewares with `extra` placed right before its schema check (after it has matched the operation). */
function beforeSchemaCheck(validator: RequestHandler[], extra: RequestHandler): RequestHandler[] {
  const at = validator.findIndex((m) => m.name === 'requestMiddleware');
  if (at < 0) throw new Error('express-openapi-validator: requestMiddleware not found; check strictNumbers against this version');
  return [...validator.slice(0, at), extra, ...validator.slice(at)];
}

/** The app: the fixed middleware every operation passes (metrics, logs, validation, the error handler) around the areas' parts. */
export function createApp(ctx: ApiContext, overrides: ApiOverrides = {}): Express {
  const areas = buildApiAreas(API_AREAS, ctx, overrides);
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
      ctx.metrics.httpDuration.observe({ route, method: requestMethod(req, res), status: String(res.statusCode) }, ms / 1000);
      if (route === '/api/live') ctx.liveLatency.record(Date.now(), ms);
    });
    next();
  });
  app.use(
    pinoHttp({
      logger: ctx.log,
      // A 503 is a dependency outage, logged once per cause by the error handler: its access line carries no stack.
      customLogLevel: (_req, res, err) => (err || (res.statusCode >= 500 && res.statusCode !== 503) ? 'error' : 'info'),
      customErrorObject: (_req, res, _err, val) => (res.statusCode === 503 ? { res: val.res, responseTime: val.responseTime } : val),
    }),
  );
  app.use(headAsGet);

  for (const pages of areas.pages) app.use(pages);

  app.use(express.json({ limit: BODY_LIMIT, verify: refuseDeepJson }));
  const validator = OpenApiValidator.middleware({
    apiSpec: API_SPEC_PATH,
    // Query and path parameters are always coerced from strings; JSON bodies must carry the right types.
    validateRequests: { allErrors: true, coerceTypes: false },
    validateResponses: ctx.cfg.api.validateResponses ? { removeAdditional: false } : false,
    // Keys, tiers and quotas are checked by the access area's guard so their errors carry documented bodies.
    validateSecurity: false,
    ignorePaths: /^\/(docs|openapi\.yaml|pay\/|livez$)/,
  });
  app.use(beforeSchemaCheck(validator, strictNumbers(numericParameters(YAML.parse(fs.readFileSync(API_SPEC_PATH, 'utf8'))))));

  for (const guard of areas.guards) app.use(guard);
  for (const routes of areas.routes) app.use(routes);

  app.use(notImplemented);
  app.use(notFoundJson);
  app.use(
    errorHandler({
      log: ctx.log,
      throttle: createLogThrottle(),
      onDependencyFailure: (f) => f.dependency === 'workflow service' && ctx.temporal?.probe.reportDown(f.reason),
    }),
  );
  return app;
}
