import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimit } from '../../domain/access/public-post-limits';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export type LimitVerdict = { allowed: true } | { allowed: false; limit: RateLimit; retryAfterMs: number };

const TABLE = 'api_public_rate_limits';
const GLOBAL_KEY = 'all';

/**
 * Fixed-window counters in Postgres (rate-limiter-flexible's RateLimiterPostgres over the table of migration
 * 20261124_0010): one atomic upsert per limit, so every API process counts against the same rows and N processes
 * never hand out N times a limit. Should Postgres fail, each limit falls back to an in-memory copy in this process
 * (its insurance limiter), which then holds per process only; the operations behind it need Postgres anyway.
 * A client's windows are taken first; the global ones only for a call its client may make, so one busy client
 * cannot use up everybody's budget.
 */
export function createPublicPostLimiter(handle: Db, limits: readonly RateLimit[]) {
  const db = knexOf(handle);
  const built = limits.map((l, i) => ({
    l,
    rl: new RateLimiterPostgres({
      storeClient: db,
      storeType: 'knex',
      tableName: TABLE,
      tableCreated: true,
      // Every limiter would sweep the same table; one sweep (all expired rows, every 5 minutes) is enough.
      clearExpiredByTimeout: i === 0,
      keyPrefix: l.name,
      points: l.points,
      duration: l.windowS,
      insuranceLimiter: new RateLimiterMemory({ keyPrefix: l.name, points: l.points, duration: l.windowS }),
    }),
  }));

  async function take(scope: RateLimit['scope'], key: string): Promise<LimitVerdict> {
    const refusals = await Promise.all(
      built
        .filter((b) => b.l.scope === scope)
        .map((b) =>
          b.rl.consume(key).then(
            () => null,
            (e: unknown) => {
              if (e instanceof RateLimiterRes) return { allowed: false as const, limit: b.l, retryAfterMs: e.msBeforeNext };
              throw e;
            },
          ),
        ),
    );
    // The window that frees up last is the one worth naming: retrying earlier would be refused again.
    const refused = refusals.filter((r) => r !== null).sort((a, b) => b.retryAfterMs - a.retryAfterMs)[0];
    return refused ?? { allowed: true };
  }

  return {
    async take(client: string): Promise<LimitVerdict> {
      const byClient = await take('client', client);
      return byClient.allowed ? take('global', GLOBAL_KEY) : byClient;
    },
  };
}
export type PublicPostLimiter = ReturnType<typeof createPublicPostLimiter>;
