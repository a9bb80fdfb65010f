/** One measured request: what autocannon sends, and the issue-13 aim it is judged against. */
export type CeilingRoute = {
  name: string;
  path: string;
  headers: Record<string, string>;
  expectStatus: number;
  /** Minimum API ÷ bare-server req/s, and for the public live list a p99 bound. */
  aim: { group: string; minRatio: number; maxP99Ms?: number };
};

const LIVE_AIM = { group: 'public /api/live', minRatio: 0.5, maxP99Ms: 10 };
const CACHEABLE_AIM = { group: 'cacheable public reads', minRatio: 0.4 };

/** The routes of bench:ceiling; keyed ones carry an Enterprise key (lookup, tier check, exact quota count). */
export function ceilingRoutes(apiKey: string): CeilingRoute[] {
  const key = { authorization: `Bearer ${apiKey}` };
  return [
    { name: '/api/live', path: '/api/live', headers: {}, expectStatus: 200, aim: LIVE_AIM },
    { name: '/api/live (gzip)', path: '/api/live', headers: { 'accept-encoding': 'gzip' }, expectStatus: 200, aim: LIVE_AIM },
    { name: '/api/health', path: '/api/health', headers: {}, expectStatus: 200, aim: CACHEABLE_AIM },
    { name: '/api/scope', path: '/api/scope', headers: {}, expectStatus: 200, aim: CACHEABLE_AIM },
    { name: '/api/accuracy', path: '/api/accuracy', headers: {}, expectStatus: 200, aim: CACHEABLE_AIM },
    // Listed with the cacheable reads by the issue, but it is a /api/v1 operation: keyed and counted.
    { name: '/api/v1/stats (key)', path: '/api/v1/stats', headers: key, expectStatus: 200, aim: CACHEABLE_AIM },
    { name: '/api/v1/live (Enterprise key)', path: '/api/v1/live', headers: key, expectStatus: 200, aim: { group: 'keyed /api/v1/live', minRatio: 0.25 } },
    { name: '422 /api/v1/live?limit=0', path: '/api/v1/live?limit=0', headers: key, expectStatus: 422, aim: { group: '422 answer', minRatio: 0.25 } },
  ];
}

/** The routes profiled by `--profile` (issue 13, "profile before changing"). */
export const PROFILED = ['/api/live', '/api/v1/live (Enterprise key)', '/api/scope', '422 /api/v1/live?limit=0'];
