import { HttpError } from '../http/http-error';
import type { RateLimit } from '../../domain/access/public-post-limits';
import type { Tier } from '../../domain/access/tiers';
import { rateLimitHeaders, type QuotaState } from './rate-limit-headers';

const HOW = 'send it as `Authorization: Bearer <key>` or `X-API-Key: <key>`; keys come from /api/upgrade or /api/signup/wallet/init';

/** RFC 9110: a 401 names the scheme it wants. */
const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="api"' };

export const missingKey = () => new HttpError(401, { error: 'missing_key', message: `this operation needs an API key: ${HOW}` }, CHALLENGE);

export const invalidKey = (why: string) =>
  new HttpError(401, { error: 'invalid_key', message: `${why}; ${HOW}` }, { 'WWW-Authenticate': 'Bearer realm="api", error="invalid_token"' });

export const ambiguousKey = () =>
  new HttpError(
    401,
    { error: 'ambiguous_key', message: `the request carries more than one API key; send exactly one (repeating the same key is fine): ${HOW}` },
    { 'WWW-Authenticate': 'Bearer realm="api", error="invalid_request"' },
  );

/** A key minted with a payment intent works once the intent is paid; its holder knows the memo (same response). */
export const keyNotActive = (memo: string) =>
  new HttpError(
    401,
    {
      error: 'key_not_active',
      message: `this API key is not active yet: it activates when its payment intent ${memo} is paid (status at /api/upgrade/${memo}; an expired intent can be replaced by POST /api/upgrade with this key as \`key\`)`,
      status_url: `/api/upgrade/${memo}`,
    },
    { 'WWW-Authenticate': 'Bearer realm="api", error="invalid_token"' },
  );

export const insufficientTier = (operation: string, required: Tier, current: Tier) =>
  new HttpError(403, {
    error: 'insufficient_tier',
    message: `${operation} needs the ${required} tier or higher; this key is ${current} (upgrade at /api/upgrade)`,
    required_tier: required,
    current_tier: current,
  });

export const quotaExceeded = (tier: Tier, q: QuotaState, now: Date) => {
  const retryAfterS = Math.max(1, Math.ceil((q.resetAt.getTime() - now.getTime()) / 1000));
  return new HttpError(
    429,
    {
      error: 'quota_exceeded',
      message: `the ${tier} tier's ${q.limit} calls for today (UTC) are used up; the count resets at ${q.resetAt.toISOString()}`,
      tier,
      limit: q.limit,
      used: q.used,
      reset_at: q.resetAt.toISOString(),
    },
    { 'Retry-After': String(retryAfterS), ...rateLimitHeaders(q) },
  );
};

/** Too many unauthenticated POSTs from this client, or from everyone: a sibling of quota_exceeded. */
export const rateLimited = (limit: RateLimit, retryAfterMs: number, now: Date) => {
  const retryAfterS = Math.max(1, Math.ceil(retryAfterMs / 1000));
  const who = limit.scope === 'client' ? 'from this client' : 'to this service from all clients together';
  return new HttpError(
    429,
    {
      error: 'rate_limited',
      message: `too many unauthenticated requests ${who}: at most ${limit.points} per ${limit.windowS} s; retry in ${retryAfterS} s`,
      scope: limit.scope,
      limit: limit.points,
      window_s: limit.windowS,
      reset_at: new Date(now.getTime() + retryAfterS * 1000).toISOString(),
    },
    { 'Retry-After': String(retryAfterS) },
  );
};
