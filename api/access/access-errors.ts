import { HttpError } from '../http/http-error';
import type { Tier } from '../../domain/access/tiers';
import { rateLimitHeaders, type QuotaState } from './rate-limit-headers';

const HOW = 'send it as `Authorization: Bearer <key>` or `X-API-Key: <key>`; keys come from /api/upgrade or /api/signup/wallet/init';

/** RFC 9110: a 401 names the scheme it wants. */
const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="api"' };

export const missingKey = () => new HttpError(401, { error: 'missing_key', message: `this operation needs an API key: ${HOW}` }, CHALLENGE);

export const invalidKey = (why: string) =>
  new HttpError(401, { error: 'invalid_key', message: `${why}; ${HOW}` }, { 'WWW-Authenticate': 'Bearer realm="api", error="invalid_token"' });

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
