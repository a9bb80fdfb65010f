import type { ErrorRequestHandler, Request, Response } from 'express';
import type { Logger, LogThrottle } from '../../platform/logger';
import { bodyReadError } from './body-errors';
import { dependencyFailure, type DependencyFailure } from './dependency-errors';
import { allowHeader, requestMethod } from './http-methods';
import { HttpError } from './http-error';
import { cut } from './safe-input';
import { safeDetail, toValidationDetail, type ValidationItem } from './validation-detail';

type ValidatorError = Error & {
  status?: number;
  errors?: { path?: string; message?: string; errorCode?: string }[];
  type?: string;
  headers?: Record<string, string>;
};

const THE: Record<DependencyFailure['dependency'], string> = {
  database: 'the database',
  'workflow service': 'the workflow service',
  'upstream service': 'a service',
};

/** How long a client should wait before retrying an answer a dependency outage caused. */
export const DEPENDENCY_RETRY_AFTER_S = 5;

export type ErrorHandlerDeps = {
  log: Logger;
  /** One log line per cause per interval: an outage fails every request alike. */
  throttle: LogThrottle;
  /** Told about every dependency failure a request ran into (for /api/health). */
  onDependencyFailure?: (f: DependencyFailure) => void;
};

/**
 * The one place errors become documented answers. Client mistakes are 4xx JSON in the spec's shapes and are not
 * logged as errors; a dependency that is down is a 503 with Retry-After; anything else is our bug, a 500 whose
 * stack is logged (rate-limited) and never sent. No path here answers HTML or echoes a secret.
 */
export function errorHandler(d: ErrorHandlerDeps): ErrorRequestHandler {
  return (err: ValidatorError, req, res, _next) => {
    if (res.headersSent) {
      // Too late for an answer: cut the connection rather than let Express finish with its own page.
      logOnce(d, 'warn', `headers-sent:${err?.message}`, { err, path: cut(req.path, 200) }, 'error after the answer started');
      req.socket.destroy();
      return;
    }
    try {
      const answer = toAnswer(err, req, res, d);
      send(res, answer);
    } catch (e) {
      logOnce(d, 'error', `error-handler:${(e as Error)?.message}`, { err: e }, 'error handler failed');
      if (!res.headersSent) res.status(500).type('application/json').end('{"error":"internal","message":"internal error"}');
    }
  };
}

/** A status, its headers and its body (none for a 204); `safe` when its 422 detail has been through safeDetail already. */
type Answer = Pick<HttpError, 'status' | 'headers'> & { body?: HttpError['body']; safe?: true };

function send(res: Response, a: Answer): void {
  res.status(a.status).set(a.headers);
  if (!a.body) {
    res.end();
    return;
  }
  const detail = (a.body as { detail?: ValidationItem[] }).detail;
  res.json(Array.isArray(detail) && !a.safe ? { detail: safeDetail(detail) } : withClientReason(a.body));
}

/**
 * The published CLI (`goracle` 0.3.0) prints `detail.error` of a failed answer before `error`, so a 503 would show it
 * only "unavailable". Every 503 carries its reason there too (README: accommodations for existing clients).
 */
function withClientReason(body: object): object {
  const b = body as { error?: unknown; message?: unknown; detail?: unknown };
  return b.error === 'unavailable' && typeof b.message === 'string' && b.detail === undefined ? { ...b, detail: { error: b.message } } : body;
}

function toAnswer(err: ValidatorError, req: Request, res: Response, d: ErrorHandlerDeps): Answer {
  if (err instanceof HttpError) return err;
  const body = bodyReadError(err, req);
  if (body) return body;

  const status = err?.status;
  const method = requestMethod(req, res);
  if (status === 404) return new HttpError(404, { error: 'not_found', message: `no route ${method} ${cut(req.path, 200)}` });
  if (status === 405) {
    // The validator knows the path and its declared methods; OPTIONS asks exactly that (RFC 9110 §9.3.7).
    const allow = allowHeader(err.headers?.Allow ?? err.headers?.allow);
    if (method === 'OPTIONS') return { status: 204, headers: { Allow: allow } };
    return new HttpError(405, { error: 'method_not_allowed', message: `${method} is not allowed on ${cut(req.path, 200)}` }, { Allow: allow });
  }
  if (status === 415) {
    // A required body that is missing or not JSON is bad input like any other: the spec's 422.
    const missing = !req.headers['content-type'] || Number(req.headers['content-length'] ?? 0) === 0;
    return new HttpError(422, {
      detail: [
        missing
          ? { loc: ['body'], msg: 'request body is required', type: 'missing' }
          : { loc: ['body'], msg: 'request body must be application/json', type: 'json_type', input: req.headers['content-type'] },
      ],
    });
  }
  // The commonest bad input: the spec's 422 built straight from the validator's list (a plain answer, no second Error).
  if (status === 400 && Array.isArray(err.errors)) return { status: 422, headers: {}, body: { detail: toValidationDetail(err.errors, req) }, safe: true };

  const dep = dependencyFailure(err);
  if (dep) {
    d.onDependencyFailure?.(dep);
    logOnce(d, 'error', `${dep.dependency}:${dep.cause}`, { dependency: dep.dependency, cause: dep.cause }, `${dep.dependency} unavailable; answering 503`);
    return new HttpError(
      503,
      {
        error: 'unavailable',
        message: `${THE[dep.dependency]} this answer needs is unavailable right now; retry in a few seconds`,
        retry_after_s: DEPENDENCY_RETRY_AFTER_S,
      },
      { 'Retry-After': String(DEPENDENCY_RETRY_AFTER_S) },
    );
  }
  // Any other client error (a malformed URL, a body the parser refused): bad input, never a 5xx.
  if (typeof status === 'number' && status >= 400 && status < 500) {
    if (status === 400) return new HttpError(422, { detail: [{ loc: ['request'], msg: 'malformed request', type: 'value_error' }] });
    return new HttpError(status, { error: 'client_error', message: cut(String(err.message ?? 'client error'), 200) });
  }
  // Our bug (a response that breaks the contract, a failed invariant): logged with its stack, rate-limited.
  logOnce(
    d,
    'error',
    `internal:${req.method}:${(req as { openapi?: { openApiRoute?: string } }).openapi?.openApiRoute ?? 'unmatched'}:${err?.message}`,
    { err, path: cut(req.path, 200) },
    'unhandled error',
  );
  return new HttpError(500, { error: 'internal', message: 'internal error' });
}

function logOnce(d: ErrorHandlerDeps, level: 'warn' | 'error', cause: string, obj: Record<string, unknown>, msg: string): void {
  const suppressed = d.throttle.admit(cause.slice(0, 300));
  if (suppressed !== undefined) d.log[level]({ ...obj, suppressed }, msg);
}
