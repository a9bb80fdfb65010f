import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { ErrorRequestHandler, Express, Request, RequestHandler, Response } from 'express';
import type { AnsweredEarly } from './public-reads';

/**
 * A keyed operation as the access check sees it (from openapi.yaml). `keyOptional`: its security list also holds the
 * empty requirement `{}`, so it answers without a key and counts a presented one against the key's quota.
 */
export type KeyedOperation = { operationId: string | undefined; path: string; capability: boolean; keyOptional: boolean };

/** True when an operation's `security` list allows calling without any credential (an empty requirement). */
export const keyOptional = (security: readonly unknown[]): boolean => security.some((s) => typeof s === 'object' && s !== null && Object.keys(s).length === 0);

/**
 * The access area's check (api/access/key-auth.ts), the one the app's guard runs: key, tier, quota, rate-limit headers
 * set on `res`; throws the documented 401/403/429. What it resolves to is the caller's access, for `res.locals.access`.
 */
export type AccessCheck = (op: KeyedOperation, req: IncomingMessage, res: ServerResponse) => Promise<unknown>;

/** The route's own handler for the operation (the very function its router mounts). */
export type KeyedAnswer = (req: Request, res: Response) => Promise<void>;

type Parameter = { in?: string; required?: boolean };
type Spec = { paths: Record<string, { parameters?: Parameter[]; get?: { operationId?: string; security?: unknown[]; parameters?: Parameter[] } }> };

/**
 * Keyed reads answered without Express's router: a `GET <path>` (no body) of an operation registered here runs the
 * same access check as the app's guard, then the route's own handler on Express's request and response objects, and
 * any error goes to the app's error handler. With a query string the request first passes the app's request
 * validation (the validator's own middlewares, in the app's order): bad input is the same 422, without the walk
 * through the rest of the stack. Without one there is nothing to validate (the operations admitted here take only
 * optional query parameters: checked once from openapi.yaml). So statuses, headers and bodies are the app's by
 * construction. Everything else, a HEAD included, goes through the app.
 */
export function createKeyedReads() {
  const answers = new Map<string, KeyedAnswer>();
  let check: AccessCheck | undefined;
  return {
    /** Called by the route that serves `GET path` with `answer` (its handler after the access guard). */
    register(path: string, answer: KeyedAnswer): void {
      answers.set(path, answer);
    },
    /** Called by the access area with the check its guard runs; without one every request goes through the app. */
    checkWith(c: AccessCheck): void {
      check = c;
    },
    /** `app` behind a listener that first serves the registered keyed reads. */
    before(app: Express, o: { spec: Spec; validation: RequestHandler[]; answered: AnsweredEarly; onError: ErrorRequestHandler }): RequestListener {
      const reads = new Map<string, { op: KeyedOperation; answer: KeyedAnswer }>();
      for (const [path, answer] of answers) reads.set(path, { op: keyedOperation(o.spec, path), answer });
      return (req, res) => {
        const q = req.url!.indexOf('?');
        const hit = req.method === 'GET' && check ? reads.get(q < 0 ? req.url! : req.url!.slice(0, q)) : undefined;
        // A body on a GET goes to the app's parser and validator, as any other odd request.
        if (!hit || req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined) {
          app(req, res);
          return;
        }
        const start = process.hrtime.bigint();
        res.once('finish', () => o.answered(req, res, hit.op.path, Number(process.hrtime.bigint() - start) / 1e6));
        const [r, s] = asExpress(app, req, res);
        const fail = (err: unknown) => o.onError(err, r, s, () => undefined);
        const serve = () =>
          check!(hit.op, req, res)
            .then((access) => {
              s.locals.access = access;
              return hit.answer(r, s);
            })
            .catch(fail);
        if (q < 0) void serve();
        else inTurn(o.validation, r, s, (err) => (err ? fail(err) : void serve()));
      };
    },
  };
}
export type KeyedReads = ReturnType<typeof createKeyedReads>;

/** Middlewares one after another as Express runs them (a throw or a rejected promise is passed on as the error). */
function inTurn(handlers: readonly RequestHandler[], req: Request, res: Response, done: (err?: unknown) => void): void {
  let i = 0;
  const step = (err?: unknown): void => {
    if ((err !== undefined && err !== null && err !== 'route' && err !== 'router') || i >= handlers.length) return done(err);
    const h = handlers[i++]!;
    try {
      const p = h(req, res, step) as unknown;
      if (p instanceof Promise) p.catch(step);
    } catch (e) {
      step(e);
    }
  };
  step();
}

/** What Express's `app.handle` does to a request before routing it (express/lib/application.js; x-powered-by is off). */
function asExpress(app: Express, req: IncomingMessage, res: ServerResponse): [Request, Response] {
  const r = req as Request;
  const s = res as Response;
  r.res = s;
  s.req = r;
  Object.setPrototypeOf(req, app.request);
  Object.setPrototypeOf(res, app.response);
  s.locals ??= Object.create(null) as Response['locals'];
  // And its router, for the middlewares it runs at the top level.
  r.baseUrl = '';
  r.originalUrl = req.url!;
  r.params = {};
  return [r, s];
}

/** The GET operation at `path`: keyed, and with no input a request without query string could be missing. */
function keyedOperation(spec: Spec, path: string): KeyedOperation {
  const item = spec.paths[path];
  const op = item?.get;
  if (!op?.operationId || !op.security?.length) throw new Error(`keyed read ${path}: openapi.yaml declares no keyed GET operation there`);
  // A `$ref` parameter has no `in` here: refused too, rather than guessed.
  if ([...(item!.parameters ?? []), ...(op.parameters ?? [])].some((p) => p.in !== 'query' || p.required))
    throw new Error(`keyed read ${path}: only optional query parameters can be skipped`);
  return { operationId: op.operationId, path, capability: 'x-capability' in op, keyOptional: keyOptional(op.security) };
}
