import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { ErrorObject } from 'ajv';
import { RequestValidator } from 'express-openapi-validator/dist/middlewares/openapi.request.validator';
import { ajvErrorsToValidatorError, augmentAjvErrors } from 'express-openapi-validator/dist/middlewares/util';
import { operations as generated, paths as specPaths } from './generated/param-checks';
import type { AnsweredEarly, CheckedListener, FastPathFailed } from './public-reads';
import { strictNumbers, type numericParameters } from './strict-numbers';
import { toValidationDetail } from './validation-detail';

type Check = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };
type Operation = { check: Check; pathParams: string[]; query: unknown; queryFromSecurity: string[] };
type Route = { template: string; op: Operation; names: string[] };
type Matched = { route: Route; values: string[] };
type ValidatorItem = { path?: string; message?: string; errorCode?: string };

/** The validator's own unknown- and empty-parameter check (it reads only its arguments). */
const processQueryParam = (RequestValidator.prototype as unknown as { processQueryParam: (q: object, schema: unknown, allowed: string[]) => void })
  .processQueryParam;

/**
 * Query strings and path segments made only of these characters mean the same to every step of the validator
 * (nothing to percent-decode, no `+`, no reserved character for its style checks, no brackets for its deep objects),
 * so the checks below see exactly what it sees. Anything else is left to the app.
 */
const PLAIN_QUERY = /^[A-Za-z0-9._~=&-]*$/;
const PLAIN_PATH = /^[A-Za-z0-9._~/-]*$/;

const MAX_REMEMBERED_PATHS = 256;
/** A URL these checks do not read (no parameters to check, or characters they leave to the app). */
const LEFT_TO_THE_APP = Object.freeze({ left: true });
const MAX_REMEMBERED_URLS = 1024;

/**
 * Lower-case names of the headers any operation of `doc` declares as a parameter (`in: header`, in its paths or among
 * its shared parameters; a security scheme's key header is not one: the validator does not check security here).
 */
export function headerParameterNames(doc: { paths?: unknown; components?: { parameters?: unknown } }): string[] {
  const names = new Set<string>();
  const visit = (x: unknown): void => {
    if (Array.isArray(x)) return x.forEach(visit);
    if (typeof x !== 'object' || x === null) return;
    const p = x as { in?: unknown; name?: unknown };
    if (p.in === 'header' && typeof p.name === 'string') names.add(p.name.toLowerCase());
    Object.values(x).forEach(visit);
  };
  visit([doc.paths, doc.components?.parameters]);
  return [...names];
}

const templateRegExp = (template: string) =>
  // Case-insensitive, as the validator matches with Express's default `case sensitive routing` (off).
  new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '([^/]+)')}$`, 'i');

/**
 * A cheap refusal: a `GET` of an operation with parameters whose query or path parameters openapi.yaml refuses gets
 * the spec's 422 before Express. The checks are generated from the contract (api/http/generated/param-checks.ts:
 * express-openapi-validator's schema per operation, compiled by Ajv's standalone code generation with the options
 * the app's validator uses), and the steps around them are the app's own: Express's query parser, strictNumbers,
 * the validator's unknown/empty parameter check and error mapping, the error handler's `toValidationDetail`. The app
 * validates before its guards and routes, so a 422 comes before any 401/403/404/429 there too. A request these
 * checks pass goes on to `next` with its checked query; one they could read differently from the app (see
 * PLAIN_QUERY) goes on unchanged.
 */
export function createParamRefusal(o: {
  queryParser: (qs: string) => object;
  numeric: ReturnType<typeof numericParameters>;
  /** Lower-case names of every header openapi.yaml declares as a parameter (headerParameterNames). */
  headerParameters: readonly string[];
}) {
  const operations = generated as unknown as Record<string, Operation>;
  const templates = (specPaths as string[]).map((t) => ({ t, re: templateRegExp(t) }));
  const numbers = strictNumbers(o.numeric);
  const routes = new Map<string, Route>();
  for (const { t } of templates) {
    const op = operations[`GET ${t}`];
    if (op) routes.set(t, { template: t, op, names: [...t.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!) });
  }

  // Clients ask a handful of paths again and again (every keyed and public read passes here first); a fuzzer asks
  // many, so the memo is bounded.
  const seen = new Map<string, Matched | undefined>();
  /**
   * The GET operation with parameters that `path` is, and its path parameters' values. The first path of the document
   * that matches decides, in the validator's order (static before templated segments): a path with no GET operation
   * there is its 405, one whose GET has no parameters its own to check.
   */
  function lookup(path: string): Matched | undefined {
    if (seen.has(path)) return seen.get(path);
    let found: Matched | undefined;
    for (const { t, re } of templates) {
      const m = re.exec(path);
      if (!m) continue;
      const route = routes.get(t);
      found = route && { route, values: m.slice(1) };
      break;
    }
    if (seen.size >= MAX_REMEMBERED_PATHS) seen.clear();
    seen.set(path, found);
    return found;
  }

  /**
   * The 422 body for `url`, or the query as the checks passed it (coerced, defaults filled in: what the app's validator
   * leaves in `req.query`), or undefined when these checks did not read the request as the app does.
   */
  function refusal(url: string, headers: IncomingMessage['headers']): { route: string; body: string } | { passed: Record<string, unknown> } | undefined {
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const qs = q < 0 ? '' : url.slice(q + 1);
    if (!PLAIN_PATH.test(path) || !PLAIN_QUERY.test(qs)) return undefined;
    const matched = lookup(path);
    if (!matched || (q < 0 && matched.route.names.length === 0)) return undefined;
    const { route, values } = matched;
    const pathParams: Record<string, unknown> = {};
    route.names.forEach((n, i) => (pathParams[n] = values[i]));
    const query = o.queryParser(qs) as Record<string, unknown>;
    // A repeated name is an array to the validator's style handling: the app's to answer.
    if (Object.values(query).some((v) => typeof v !== 'string')) return undefined;
    const req = { method: 'GET', query, headers: { ...headers }, openapi: { openApiRoute: route.template, pathParams } };
    numbers(req as never, undefined as never, () => undefined);
    let errors: ValidatorItem[];
    try {
      processQueryParam(req.query, route.op.query, route.op.queryFromSecurity);
      if (route.op.check({ query: req.query, headers: req.headers, params: pathParams, cookies: undefined, body: undefined })) return { passed: req.query };
      errors = ajvErrorsToValidatorError(400, augmentAjvErrors(route.op.check.errors ?? [])).errors as ValidatorItem[];
    } catch (err) {
      const e = err as { status?: number; errors?: ValidatorItem[] };
      if (e.status !== 400 || !Array.isArray(e.errors)) throw err;
      errors = e.errors;
    }
    return { route: route.template, body: JSON.stringify({ detail: toValidationDetail(errors, req) }) };
  }

  type Outcome = { refused: { route: string; headers: Record<string, string | number>; bytes: Buffer } } | { passed: Readonly<Record<string, unknown>> };
  /** What the checks make of `url`, ready to send or hand on; undefined when they leave it to the app. */
  function outcome(url: string, headers: IncomingMessage['headers']): Outcome | undefined {
    const r = refusal(url, headers);
    if (!r) return undefined;
    // Shared by every request for this URL while remembered: the keyed read that is handed it only reads it.
    if ('passed' in r) return { passed: Object.freeze(r.passed) };
    const bytes = Buffer.from(r.body);
    // As Express's res.json writes it (type, then length).
    return { refused: { route: r.route, bytes, headers: { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': bytes.length } } };
  }

  // A URL's outcome depends on the URL alone unless the request carries a header some operation reads as a parameter,
  // so clients asking the same URL again (a poller, a client retrying its mistake) reuse it; bounded against fuzzers.
  // What these checks leave to the app is remembered too: the public reads without parameters pass here on every request.
  const remembered = new Map<string, Outcome | typeof LEFT_TO_THE_APP>();
  // A loop, not `.some(callback)`: no closure made per request (every GET passes here).
  const carriesHeaderParameter = (headers: IncomingMessage['headers']) => {
    for (const h of o.headerParameters) if (headers[h] !== undefined) return true;
    return false;
  };

  return {
    /**
     * `next` behind a listener that first refuses the bad parameters of GET operations, and hands `next` the query of
     * a request they passed (the keyed reads serve it without checking it again).
     */
    before(next: CheckedListener, answered: AnsweredEarly, failed: FastPathFailed): RequestListener {
      return (req: IncomingMessage, res: ServerResponse) => {
        // A request with a body is the app's (its parser and validator answer first).
        if (req.method !== 'GET' || req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined) return next(req, res);
        const url = req.url!;
        const rememberable = !carriesHeaderParameter(req.headers);
        let r = rememberable ? remembered.get(url) : undefined;
        // Timed only when it may be answered here (a remembered refusal costs nothing to look up).
        let start: bigint | undefined;
        if (!r) {
          start = process.hrtime.bigint();
          try {
            r = outcome(url, req.headers) ?? LEFT_TO_THE_APP;
          } catch (err) {
            failed(err, 'parameter checks');
            return next(req, res);
          }
          if (rememberable) {
            if (remembered.size >= MAX_REMEMBERED_URLS) remembered.clear();
            remembered.set(url, r);
          }
        }
        if ('left' in r) return next(req, res);
        if ('passed' in r) return next(req, res, r.passed);
        start ??= process.hrtime.bigint();
        res.writeHead(422, r.refused.headers);
        res.end(r.refused.bytes);
        answered(req, res, r.refused.route, Number(process.hrtime.bigint() - start) / 1e6);
      };
    },
  };
}
