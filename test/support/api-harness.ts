import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { buildApiDeps } from '../../api/api-deps';
import { createApp, type ApiDeps } from '../../api/app';
import type { AccessSettings } from '../../api/access/key-auth';
import type { PublicPostLimits } from '../../domain/access/public-post-limits';
import type { Knex } from '../../platform/db';
import { createLogger } from '../../platform/logger';
import { createMetrics } from '../../platform/metrics';

/**
 * Tests of other areas call keyed endpoints without a key: by default the app runs inside the free beta
 * window, where that is allowed. Access tests pass `access.keyRequiredAfter` (and issue keys with
 * `issueTestKey`) to test what happens after it.
 */
export const OPEN_BETA: Partial<AccessSettings> = { keyRequiredAfter: new Date('9999-12-31T23:59:59Z') };

/**
 * Every test client is 127.0.0.1: by default the limits on unauthenticated POSTs are set out of reach (still
 * counted in Postgres), and the rate-limit tests pass their own through `options.publicPostLimits`.
 */
export const ROOMY_POST_LIMITS: PublicPostLimits = { perClientPerMinute: 1_000_000, perClientPerHour: 1_000_000, globalPerMinute: 1_000_000, globalPerHour: 1_000_000 };

/** The real app on a loopback port, over a test database, with response validation on. */
export async function startApi(
  db: Knex,
  { access, ...overrides }: Partial<Omit<ApiDeps, 'access'>> & { access?: Partial<AccessSettings> } = {},
  options: Pick<Parameters<typeof buildApiDeps>[1], 'billing' | 'publicPostLimits'> = {},
): Promise<{ url: string; close: () => Promise<void>; deps: ApiDeps }> {
  const deps: ApiDeps = {
    ...buildApiDeps(db, {
      log: createLogger(process.env.TEST_LOG_LEVEL ?? 'silent', 'api-test'),
      metrics: createMetrics('api-test'),
      validateResponses: true,
      version: 'test',
      heartbeatIntervalS: 15,
      watchdogIntervalS: 60,
      priceRefreshIntervalS: 300,
      expectedDaemons: ['api', 'worker'],
      modelRefitEveryS: 600,
      accuracyRefreshS: 300,
      conditionsRefreshS: 300,
      conditionsMinHistoryH: 24,
      access: { ...OPEN_BETA, ...access },
      now: overrides.now,
      ...options,
      publicPostLimits: { ...ROOMY_POST_LIMITS, ...options.publicPostLimits },
    }),
    ...overrides,
  };
  const app = createApp(deps);
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    deps,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** fetch + JSON, returning status, headers and parsed body. */
export async function call(url: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    /* html or text */
  }
  return { status: res.status, headers: res.headers, body };
}
