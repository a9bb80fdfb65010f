import fs from 'node:fs';
import http, { type Server } from 'node:http';
import express, { type Express, type RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import YAML from 'yaml';
import { createLogThrottle } from '../platform/logger';
import { accessApi } from './access';
import { accuracyApi } from './accuracy';
import { alertsApi } from './alerts';
import { buildApiAreas, type ApiAreaOverrides, type ApiContext } from './api-area';
import { API_SPEC_PATH } from './api-spec';
import { billingApi } from './billing';
import { createAccessLog } from './http/access-log';
import { refuseDeepJson } from './http/body-errors';
import { createParamRefusal, headerParameterNames } from './http/param-refusal';
import { VALIDATE_REQUESTS } from './http/request-validation';
import type { AnsweredEarly, FastPathFailed } from './http/public-reads';
import { errorHandler } from './http/error-handler';
import { firehoseApi } from './firehose';
import { headAsGet, notFoundJson, requestMethod } from './http/http-methods';
import { operationsWithoutInputs, skipWithoutInputs } from './http/no-input-operations';
import { notImplemented } from './http/not-implemented';
import { routeByOperation } from './http/operation-routing';
import { routeLabel } from './http/route-label';
import { numericParameters, strictNumbers } from './http/strict-numbers';
import { ledgerApi } from './ledger';
import { liveApi } from './live';
import { marketApi } from './market';
import { mintApi } from './mint';
import { opsApi } from './ops';
import { paperApi } from './paper';
import { perpsApi } from './perps';
import { webhooksApi } from './webhooks';
import { signalsApi } from './signals';
import { verdictApi } from './verdict';
import { walletsApi } from './wallets';
import { webApi } from './web';

/** Every area of the API (api/<area>/index.ts); a new area adds its own here. */
export const API_AREAS = [
  opsApi,
  marketApi,
  liveApi,
  mintApi,
  accuracyApi,
  accessApi,
  billingApi,
  walletsApi,
  signalsApi,
  ledgerApi,
  perpsApi,
  verdictApi,
  paperApi,
  webhooksApi,
  firehoseApi,
  alertsApi,
  webApi,
] as const;

export type ApiOverrides = ApiAreaOverrides<typeof API_AREAS>;

/** The Express app, and the server `app.listen` would listen with (for a caller that listens its own way). */
export type ApiApp = Express & { createServer: () => Server };

/** Bodies are small JSON objects; anything larger is refused before parsing. */
const BODY_LIMIT = '32kb';

/**
 * The validator's middlewares with `extra` placed right before its schema check (after it has matched the operation),
 * and that check skipped for operations without inputs (no-input-operations.ts).
 */
function aroundSchemaCheck(validator: RequestHandler[], extra: RequestHandler, noInputs: Set<string>): RequestHandler[] {
  const at = validator.findIndex((m) => m.name === 'requestMiddleware');
  if (at < 0) throw new Error('express-openapi-validator: requestMiddleware not found; check strictNumbers against this version');
  return [...validator.slice(0, at), extra, skipWithoutInputs(validator[at]!, noInputs), ...validator.slice(at + 1)];
}

/** The app: the fixed middleware every operation passes (metrics, logs, validation, the error handler) around the areas' parts. */
export function createApp(ctx: ApiContext, overrides: ApiOverrides = {}): ApiApp {
  const areas = buildApiAreas(API_AREAS, ctx, overrides);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // No forwarded header is believed by default: per-client limits take their client from api/http/client-address.ts.
  app.set('trust proxy', false);

  // Latency by route template (bounded labels: see route-label.ts); /api/live also feeds the /api/status window.
  // The access log writes errors, slow requests and a sample at info (every request at debug): see access-log.ts.
  const accessLog = createAccessLog(ctx.log, ctx.cfg.api.accessLog);
  const answeredEarly: AnsweredEarly = (req, res, route, ms) => {
    ctx.metrics.httpDuration.observe({ route, method: 'GET', status: String(res.statusCode) }, ms / 1000);
    if (route === '/api/live') ctx.liveLatency.record(Date.now(), ms);
    accessLog(req, res, ms, 'GET');
  };
  app.use((req, res, next) => {
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const route = routeLabel(req, res);
      const method = requestMethod(req, res);
      ctx.metrics.httpDuration.observe({ route, method, status: String(res.statusCode) }, ms / 1000);
      if (route === '/api/live') ctx.liveLatency.record(Date.now(), ms);
      accessLog(req, res, ms, method);
    });
    next();
  });
  app.use(headAsGet);

  for (const pages of areas.pages) app.use(pages);

  // Only a request that carries a body is handed to the JSON parser (the parser's own test, without its call).
  const json = express.json({ limit: BODY_LIMIT, verify: refuseDeepJson });
  app.use((req, res, next) => (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined ? next() : json(req, res, next)));
  const validator = OpenApiValidator.middleware({
    apiSpec: API_SPEC_PATH,
    validateRequests: { ...VALIDATE_REQUESTS },
    validateResponses: ctx.cfg.api.validateResponses ? { removeAdditional: false } : false,
    // Keys, tiers and quotas are checked by the access area's guard so their errors carry documented bodies.
    validateSecurity: false,
    ignorePaths: /^\/(docs|openapi\.yaml|pay\/|livez$)/,
  });
  const spec = YAML.parse(fs.readFileSync(API_SPEC_PATH, 'utf8'));
  const numeric = numericParameters(spec);
  const validation = aroundSchemaCheck(validator, strictNumbers(numeric), operationsWithoutInputs(spec));
  app.use(validation);

  for (const guard of areas.guards) app.use(guard);
  app.use(routeByOperation(areas.routes));

  app.use(notImplemented);
  app.use(notFoundJson);
  const throttle = createLogThrottle();
  const onError = errorHandler({
    log: ctx.log,
    throttle,
    onDependencyFailure: (f) => f.dependency === 'workflow service' && ctx.temporal?.probe.reportDown(f.reason),
  });
  app.use(onError);
  // A server made by `app.listen` first answers the fresh prepared public reads (public-reads.ts), then the keyed
  // reads with the guard's access check and the routes' own handlers (keyed-reads.ts), before Express routes them.
  const keyed = ctx.keyedReads.before(app, { app, spec, validation, answered: answeredEarly, onError });
  // A fast-path answer that throws is the app's to answer; its cause is logged once per interval, not per request.
  const fastPathFailed: FastPathFailed = (err, route) => {
    const suppressed = throttle.admit(`fast-path:${route}:${(err as Error)?.message}`.slice(0, 300));
    if (suppressed !== undefined) ctx.log.error({ err, route, suppressed }, 'fast path failed; the app answers the request');
  };
  // Bad parameters of a GET are refused first, as the app's validator refuses them before its guards and routes.
  const refusal = createParamRefusal({
    queryParser: app.get('query parser fn') as (qs: string) => object,
    numeric,
    headerParameters: headerParameterNames(spec),
  });
  const listener = refusal.before(ctx.publicReads.before(keyed, answeredEarly, fastPathFailed), answeredEarly, fastPathFailed);
  // Areas that serve outside Express (the firehose's websocket upgrades) attach to that server.
  const createServer = () => {
    const server = http.createServer(listener);
    for (const attach of areas.servers) attach(server);
    return server;
  };
  app.listen = ((...args: Parameters<Server['listen']>) => createServer().listen(...args)) as Express['listen'];
  return Object.assign(app, { createServer });
}
