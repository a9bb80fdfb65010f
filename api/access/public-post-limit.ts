import type { IncomingMessage } from 'node:http';
import type { Request, RequestHandler } from 'express';
import type { PublicPostLimiter } from '../../db/access/public-post-limiter';
import { clientBucket } from '../../domain/access/public-post-limits';
import { rateLimited } from './access-errors';

type OpenApiReq = Request & { openapi?: { schema?: { security?: unknown[] } } };

/**
 * Rate limits on every POST operation that openapi.yaml declares without a security requirement (`/api/upgrade`,
 * `/api/signup/wallet/init`, `/api/signup/wallet/sign`, `/api/keys/new`, and any added later): 429 `rate_limited`
 * with `Retry-After`. Runs after request validation, so a malformed request is answered 422 and costs nothing.
 * The client is `clientOf(req)`: the socket's peer, or what a configured proxy forwarded (api/http/client-address.ts).
 */
export function publicPostLimit(d: { limiter: PublicPostLimiter; now: () => Date; clientOf: (req: IncomingMessage) => string | undefined }): RequestHandler {
  return async (req, _res, next) => {
    if (req.method !== 'POST') return next();
    const schema = (req as OpenApiReq).openapi?.schema;
    if (!schema || schema.security?.length) return next();
    const verdict = await d.limiter.take(clientBucket(d.clientOf(req)));
    if (!verdict.allowed) throw rateLimited(verdict.limit, verdict.retryAfterMs, d.now());
    next();
  };
}
