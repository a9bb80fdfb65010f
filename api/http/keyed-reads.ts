import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { ErrorRequestHandler, Express, Request, Response } from 'express';
import type { AnsweredEarly } from './public-reads';

/** A keyed operation as the access check sees it (from openapi.yaml). */
export type KeyedOperation = { operationId: string | undefined; path: string; capability: boolean };

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
 * Keyed reads answered without Express's router and validator: a plain `GET <path>` (no query string, no body) of
 * an operation registered here runs the same access check as the app's guard, then the route's own handler on
 * Express's request and response objects, and any error goes to the app's error handler. So statuses, headers and
 * bodies are the app's by construction; what is skipped is the walk through the middleware stack and the request
 * validator, which has nothing to check on such a request (the operations admitted here take only optional query
 * parameters: checked once from openapi.yaml). Everything else, a HEAD or a query string included, goes through the app.
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
    before(app: Express, o: { spec: Spec; answered: AnsweredEarly; onError: ErrorRequestHandler }): RequestListener {
      const reads = new Map<string, { op: KeyedOperation; answer: KeyedAnswer }>();
      for (const [path, answer] of answers) reads.set(path, { op: keyedOperation(o.spec, path), answer });
      return (req, res) => {
        const hit = req.method === 'GET' && check ? reads.get(req.url!) : undefined;
        // A body on a GET goes to the app's parser and validator, as any other odd request.
        if (!hit || req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined) {
          app(req, res);
          return;
        }
        const start = process.hrtime.bigint();
        res.once('finish', () => o.answered(req, res, req.url!, Number(process.hrtime.bigint() - start) / 1e6));
        const [r, s] = asExpress(app, req, res);
        check!(hit.op, req, res)
          .then((access) => {
            s.locals.access = access;
            return hit.answer(r, s);
          })
          .catch((err: unknown) => o.onError(err, r, s, () => undefined));
      };
    },
  };
}
export type KeyedReads = ReturnType<typeof createKeyedReads>;

/** What Express's `app.handle` does to a request before routing it (express/lib/application.js; x-powered-by is off). */
function asExpress(app: Express, req: IncomingMessage, res: ServerResponse): [Request, Response] {
  const r = req as Request;
  const s = res as Response;
  r.res = s;
  s.req = r;
  Object.setPrototypeOf(req, app.request);
  Object.setPrototypeOf(res, app.response);
  s.locals ??= Object.create(null) as Response['locals'];
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
  return { operationId: op.operationId, path, capability: 'x-capability' in op };
}
