import type { Request, Response } from 'express';

type Routed = Request & { openapi?: { openApiRoute?: string } };

/**
 * The `route` label of a request's metrics: the operation's path template, or the template of the non-API route
 * that answered (the docs, the raw document, pay pages), or `unmatched`. Never the request's own path: case
 * variants and random paths would each add a series that lives as long as the process.
 */
export function routeLabel(req: Request, res: Response): string {
  const template = (req as Routed).openapi?.openApiRoute;
  if (template) return template;
  if (res.statusCode === 404) return 'unmatched';
  const path = req.route?.path as unknown;
  if (typeof path === 'string') return path;
  if (Array.isArray(path) && typeof path[0] === 'string') return path[0];
  if (req.baseUrl === '/docs/assets' || req.originalUrl.startsWith('/docs/assets/')) return '/docs/assets';
  return 'unmatched';
}
