import type { RequestHandler } from 'express';

type Operation = { parameters?: unknown[]; requestBody?: unknown };
type Doc = { paths: Record<string, Record<string, Operation | unknown[]>> };

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** `GET /api/scope`-style keys of the operations that take nothing: no parameters (path-level or their own), no body. */
export function operationsWithoutInputs(doc: Doc): Set<string> {
  const out = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    const shared = (item.parameters as unknown[] | undefined) ?? [];
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      const o = op as Operation;
      if (!shared.length && !o.parameters?.length && o.requestBody === undefined) out.add(`${method.toUpperCase()} ${path}`);
    }
  }
  return out;
}

type Matched = { openapi?: { openApiRoute?: string } };

/**
 * The validator's request check, skipped for an operation that takes nothing when the request brings nothing (no
 * query string, no body): there is nothing it could reject. A request that does bring something is checked as
 * before (an unknown query parameter stays a 422). Decided once per operation from openapi.yaml.
 */
export function skipWithoutInputs(check: RequestHandler, noInputs: Set<string>): RequestHandler {
  return function requestMiddleware(req, res, next) {
    const route = (req as unknown as Matched).openapi?.openApiRoute;
    const bringsNothing = !req.url.includes('?') && req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined;
    if (route && bringsNothing && noInputs.has(`${req.method} ${route}`)) return next();
    return check(req, res, next);
  };
}
