/** A key's quota for the current UTC day, as the rate-limit headers and /api/me report it. */
export type QuotaState = { limit: number; used: number; resetAt: Date };

export const quotaRemaining = (q: QuotaState): number => Math.max(0, q.limit - q.used);

/** `X-RateLimit-*` on every keyed response (documented in openapi.yaml components/headers). */
export function rateLimitHeaders(q: QuotaState): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(q.limit),
    'X-RateLimit-Remaining': String(quotaRemaining(q)),
    'X-RateLimit-Reset': String(Math.floor(q.resetAt.getTime() / 1000)),
  };
}
