import type { RequestHandler } from 'express';
import { cut } from './safe-input';

/**
 * HEAD is GET without a body (RFC 9110 §9.3.2). openapi.yaml declares GET operations only, so a HEAD is
 * validated, authorised and answered as the GET it mirrors; Node sends no body for a request that arrived as
 * HEAD, and the headers (Content-Length included) are the GET's. The method is put back once the answer is
 * sent, for the access log and metrics.
 */
export const headAsGet: RequestHandler = (req, res, next) => {
  if (req.method === 'HEAD') {
    req.method = 'GET';
    res.locals.requestMethod = 'HEAD';
    res.once('finish', () => void (req.method = 'HEAD'));
  }
  next();
};

/** The method a request arrived with (a HEAD is served as GET). */
export const requestMethod = (req: { method: string }, res: { locals: Record<string, unknown> }): string =>
  (res.locals.requestMethod as string | undefined) ?? req.method;

/** An `Allow` value from the validator's list of declared methods ("get, post"): upper case, with HEAD and OPTIONS. */
export function allowHeader(declared: string | undefined): string {
  const methods = new Set(
    (declared ?? '')
      .split(',')
      .map((m) => m.trim().toUpperCase())
      .filter(Boolean),
  );
  if (methods.has('GET')) methods.add('HEAD');
  methods.add('OPTIONS');
  const order = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
  return [...methods].sort((a, b) => order.indexOf(a) - order.indexOf(b)).join(', ');
}

/** The JSON 404 for anything no route answered (under /docs too), instead of Express's HTML page. */
export const notFoundJson: RequestHandler = (req, res) => {
  res.status(404).json({ error: 'not_found', message: `no route ${requestMethod(req, res)} ${cut(req.path, 200)}` });
};
