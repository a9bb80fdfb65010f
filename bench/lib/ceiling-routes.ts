/** One measured request: what autocannon sends, and the aim it is judged against. */
export type CeilingRoute = {
  name: string;
  path: string;
  headers: Record<string, string>;
  expectStatus: number;
  /** Minimum API ÷ bare-server req/s, and for the public live list a p99 bound. */
  aim: { group: string; minRatio: number; maxP99Ms?: number };
};

const LIVE_AIM = { group: 'public prepared reads', minRatio: 0.8, maxP99Ms: 10 };
const CACHEABLE_AIM = { group: 'public prepared reads', minRatio: 0.8 };
const KEYED_AIM = { group: 'keyed reads', minRatio: 0.5 };

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
    { name: '/api/v1/stats (key)', path: '/api/v1/stats', headers: key, expectStatus: 200, aim: KEYED_AIM },
    { name: '/api/v1/live (Enterprise key)', path: '/api/v1/live', headers: key, expectStatus: 200, aim: KEYED_AIM },
    { name: '/api/v1/live?limit=60 (Enterprise key)', path: '/api/v1/live?limit=60', headers: key, expectStatus: 200, aim: KEYED_AIM },
    { name: '422 /api/v1/live?limit=0', path: '/api/v1/live?limit=0', headers: key, expectStatus: 422, aim: { group: '422 answer', minRatio: 0.4 } },
  ];
}
