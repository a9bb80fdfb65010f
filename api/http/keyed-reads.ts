import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorRequestHandler, Express, Request, RequestHandler, Response } from 'express';
import { sendPreparedAnswer, type RouteAnswer } from './prepared-body';
import { createGzipChoice, writePreparedAnswer } from './prepared-write';
import type { AnsweredEarly, CheckedListener } from './public-reads';

/**
 * A keyed operation as the access check sees it (from openapi.yaml). `keyOptional`: its security list also holds the
 * empty requirement `{}`, so it answers without a key and counts a presented one against the key's quota.
 */
export type KeyedOperation = { operationId: string | undefined; path: string; capability: boolean; keyOptional: boolean };

/** True when an operation's `security` list allows calling without any credential (an empty requirement). */
export const keyOptional = (security: readonly unknown[]): boolean => security.some((s) => typeof s === 'object' && s !== null && Object.keys(s).length === 0);

/** What the access check lets through: the caller's access, and the rate-limit headers its answer carries. */
export type Admission = { access: unknown; headers?: Record<string, string> };

/**
 * The access area's check (api/access/key-auth.ts), the one the app's guard runs: key, tier, quota; `admit` throws the
 * documented 401/403/429 and touches no response; `applyTo` sets what it admitted on a response the app writes
 * (the rate-limit headers, the refund of a counted call that ends in the service's own 5xx).
 */
export type AccessCheck = {
  /** A value when it could decide from memory (no promise, no turn of the event loop), a promise when it had to wait. */
  admit(op: KeyedOperation, req: IncomingMessage): Admission | Promise<Admission>;
  applyTo(res: ServerResponse, a: Admission): void;
};

/**
 * A keyed read's answer from memory: for the caller (what the access check resolved to) and the request's query as
 * the parameter checks left it (numbers coerced, defaults filled in), the route's headers and its prepared body.
 * The answer itself when its body is in memory and fresh (it is then written in the same turn as the request
 * arrived), a promise when it must be read or built first.
 */
export type KeyedRead = (access: unknown, query: Readonly<Record<string, unknown>>) => RouteAnswer | Promise<RouteAnswer>;

type Parameter = { in?: string; required?: boolean };
type Spec = { paths: Record<string, { parameters?: Parameter[]; get?: { operationId?: string; security?: unknown[]; parameters?: Parameter[] } }> };

type Route = { op: KeyedOperation; read: KeyedRead };

type Query = Readonly<Record<string, unknown>>;
/** What a request without a query string brings (the route applies its documented defaults). */
const NO_QUERY: Query = Object.freeze({});

/**
 * Keyed reads answered without Express: a `GET <path>` (no body) of an operation registered here runs the same
 * access check as the app's guard, then the route's own `KeyedRead`, and writes its answer on the plain node
 * response with the bytes and headers `sendPreparedAnswer` sends (prepared-write.ts). The query is the one the
 * parameter checks before this listener passed (param-refusal.ts, generated from openapi.yaml: the contract, not
 * checked twice); a request without a query string has nothing to check (the operations admitted here take only
 * optional query parameters: checked once from openapi.yaml). A query string those checks did not read (characters
 * they leave to the app) first passes the app's request validation (its own middlewares, in the app's order).
 * Express's request and response objects are made only where Express's behaviour is needed: that validation, an
 * error (the app's error handler writes it), a conditional request other than the exact ETag and a gzip client
 * before the compressed form exists (Express's `res.send`). So statuses, headers and bodies are the app's by
 * construction. Everything else, a HEAD included, goes through the app.
 */
export function createKeyedReads() {
  const reads = new Map<string, KeyedRead>();
  let check: AccessCheck | undefined;
  return {
    /** Called by the route that serves `GET path` with `read`; returns the handler its router mounts after the guard. */
    register(path: string, read: KeyedRead): RequestHandler {
      reads.set(path, read);
      return async (req, res) => sendPreparedAnswer(req, res, await read(res.locals.access, req.query));
    },
    /** Called by the access area with the check its guard runs; without one every request goes through the app. */
    checkWith(c: AccessCheck): void {
      check = c;
    },
    /** `next` (the app, or listeners in front of it) behind a listener that first serves the registered keyed reads. */
    before(
      next: CheckedListener,
      o: { app: Express; spec: Spec; validation: RequestHandler[]; answered: AnsweredEarly; onError: ErrorRequestHandler },
    ): CheckedListener {
      const routes = new Map<string, Route>();
      for (const [path, read] of reads) routes.set(path, { op: keyedOperation(o.spec, path), read });
      const wantsGzip = createGzipChoice();
      const answered = (req: IncomingMessage, res: ServerResponse, hit: Route, start: bigint) =>
        o.answered(req, res, hit.op.path, Number(process.hrtime.bigint() - start) / 1e6);
      /** The request as Express's, answered (for the metrics and log) when it finishes; once made, it stays Express's. */
      const viaExpress = (req: IncomingMessage, res: ServerResponse, hit: Route, start: bigint): [Request, Response] => {
        if (Object.getPrototypeOf(res) !== o.app.response) res.once('finish', () => answered(req, res, hit, start));
        return asExpress(o.app, req, res);
      };
      const fail = (err: unknown, req: IncomingMessage, res: ServerResponse, hit: Route, start: bigint) => {
        const [r, s] = viaExpress(req, res, hit, start);
        o.onError(err, r, s, () => undefined);
      };
      /** A query string the parameter checks did not read: the app's validation first, then Express's objects throughout. */
      const validateThenServe = (req: IncomingMessage, res: ServerResponse, hit: Route, start: bigint) => {
        const [r, s] = viaExpress(req, res, hit, start);
        inTurn(o.validation, r, s, (err) => {
          if (err) return fail(err, req, res, hit, start);
          const admitAndSend = async () => {
            const admitted = await check!.admit(hit.op, req);
            check!.applyTo(res, admitted);
            s.locals.access = admitted.access;
            await sendPreparedAnswer(r, s, await hit.read(admitted.access, r.query));
          };
          admitAndSend().catch((e: unknown) => fail(e, req, res, hit, start));
        });
      };
      /** A read's error is answered on a response that carries what was admitted (the call given back on a 5xx). */
      const failAdmitted = (err: unknown, req: IncomingMessage, res: ServerResponse, hit: Route, start: bigint, admitted: Admission) => {
        // A response already made Express's has it.
        if (!res.headersSent && Object.getPrototypeOf(res) !== o.app.response) check!.applyTo(res, admitted);
        fail(err, req, res, hit, start);
      };
      /** The answer of an admitted call, in this turn when the read has it in memory. No closure per request on that path. */
      const serve = (req: IncomingMessage, res: ServerResponse, hit: Route, query: Query, start: bigint, admitted: Admission) => {
        let a: RouteAnswer | Promise<RouteAnswer>;
        try {
          a = hit.read(admitted.access, query);
        } catch (err) {
          return failAdmitted(err, req, res, hit, start, admitted);
        }
        if (a instanceof Promise)
          a.then(
            (answer) => write(req, res, hit, start, admitted, answer),
            (err: unknown) => failAdmitted(err, req, res, hit, start, admitted),
          );
        else write(req, res, hit, start, admitted, a);
      };
      const write = (req: IncomingMessage, res: ServerResponse, hit: Route, start: bigint, admitted: Admission, a: RouteAnswer) => {
        try {
          // The rate-limit headers go out with the answer's in one writeHead (theirs first, as the app sets them).
          if (writePreparedAnswer(req, res, a, wantsGzip, admitted.headers)) return answered(req, res, hit, start);
          check!.applyTo(res, admitted);
          const [r, s] = viaExpress(req, res, hit, start);
          sendPreparedAnswer(r, s, a).catch((err: unknown) => failAdmitted(err, req, res, hit, start, admitted));
        } catch (err) {
          failAdmitted(err, req, res, hit, start, admitted);
        }
      };
      return (req, res, checked) => {
        const url = req.url!;
        const q = url.indexOf('?');
        const hit = req.method === 'GET' && check ? routes.get(q < 0 ? url : url.slice(0, q)) : undefined;
        // A body on a GET goes to the app's parser and validator, as any other odd request.
        if (!hit || req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined) {
          next(req, res, checked);
          return;
        }
        const start = process.hrtime.bigint();
        const query = q < 0 ? NO_QUERY : checked;
        if (query === undefined) return validateThenServe(req, res, hit, start);
        // A key in memory with calls left in its lease and a fresh body: admitted, counted and written in this turn.
        let admitted: Admission | Promise<Admission>;
        try {
          admitted = check!.admit(hit.op, req);
        } catch (err) {
          return fail(err, req, res, hit, start);
        }
        if (admitted instanceof Promise)
          admitted.then(
            (a) => serve(req, res, hit, query, start, a),
            (err: unknown) => fail(err, req, res, hit, start),
          );
        else serve(req, res, hit, query, start, admitted);
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
