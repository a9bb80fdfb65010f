import type { RequestHandler } from 'express';

type OpenApiReq = { openapi?: { schema?: { 'x-capability'?: string; operationId?: string } } };

/**
 * Operations whose capability is not live yet are declared in openapi.yaml with `x-capability`; the request
 * has already passed validation, so it is answered 501 naming what it waits for. No invented data.
 */
export const notImplemented: RequestHandler = (req, res, next) => {
  const schema = (req as unknown as OpenApiReq).openapi?.schema;
  const capability = schema?.['x-capability'];
  if (!capability) return next();
  res.status(501).json({
    error: 'not_implemented',
    capability,
    message: `${schema?.operationId ?? req.path} waits for the ${capability} capability; see the README status table`,
  });
};
