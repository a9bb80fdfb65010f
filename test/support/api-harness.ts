import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Client } from '@temporalio/client';
import type { Express } from 'express';
import { createApiContext, type ApiContext } from '../../api/api-area';
import { createApp, type ApiOverrides } from '../../api/app';
import type { PublicPostLimits } from '../../domain/access/public-post-limits';
import { loadConfig } from '../../platform/config';
import { createLogger, type Logger } from '../../platform/logger';
import { createMetrics } from '../../platform/metrics';
import { createTestDatabase } from './test-db';
import type { KnexDb } from '../../db/knex-handle';

/** The settings of the API under test: its environment as a process has one, plus what only a test replaces. */
export type ApiOptions = {
  env?: Record<string, string>;
  /** Listen on this loopback port (a restarted process taking its predecessor's place); default: any free one. */
  port?: number;
  now?: () => Date;
  log?: Logger;
  /** Temporal for the commands that start workflows; without it they answer 503, as in a process without TEMPORAL_ADDRESS. */
  temporal?: { client: Client; taskQueue: string };
  overrides?: ApiOverrides;
};

/** The limits on unauthenticated POSTs as the environment variables that set them. */
export const publicPostLimitsEnv = (l: PublicPostLimits): Record<string, string> => ({
  PUBLIC_POST_PER_CLIENT_PER_MINUTE: String(l.perClientPerMinute),
  PUBLIC_POST_PER_CLIENT_PER_HOUR: String(l.perClientPerHour),
  PUBLIC_POST_GLOBAL_PER_MINUTE: String(l.globalPerMinute),
  PUBLIC_POST_GLOBAL_PER_HOUR: String(l.globalPerHour),
});

/**
 * Tests of other areas call keyed endpoints without a key: by default the app runs inside the free beta window, where
 * that is allowed (access tests end it with `afterBeta`). Every test client is 127.0.0.1: the limits on
 * unauthenticated POSTs are set out of reach (still counted in Postgres); the rate-limit tests set their own.
 */
const TEST_API_ENV: Record<string, string> = {
  API_KEY_REQUIRED_AFTER: '9999-12-31T23:59:59Z',
  // Tests write a row and read it back at once: the prepared reads are rebuilt per request unless a test sets a TTL.
  API_READ_CACHE_TTL_MS: '0',
  ...publicPostLimitsEnv({ perClientPerMinute: 1_000_000, perClientPerHour: 1_000_000, globalPerMinute: 1_000_000, globalPerHour: 1_000_000 }),
};

/** The beta window ended at `endedAt` (a day ago by default): keyed operations need a key. */
export const afterBeta = (o: { endedAt?: Date; keyCacheTtlMs?: number } = {}): Record<string, string> => ({
  API_KEY_REQUIRED_AFTER: (o.endedAt ?? new Date(Date.now() - 86_400_000)).toISOString(),
  ...(o.keyCacheTtlMs === undefined ? {} : { API_KEY_CACHE_TTL_MS: String(o.keyCacheTtlMs) }),
});

/**
 * `app` is the Express app itself (without what `app.listen` answers before it: api/http/public-reads.ts,
 * keyed-reads.ts); `server` the server `app.listen` made, with those listeners in front.
 */
export type StartedApi = { url: string; close: () => Promise<void>; deps: ApiContext; app: Express; server: Server };

/** The real app on a loopback port, over a test database, with response validation on. */
export async function startApi(db: KnexDb, o: ApiOptions = {}): Promise<StartedApi> {
  const ctx = createApiContext({
    cfg: loadConfig({ ...TEST_API_ENV, ...o.env }),
    db,
    log: o.log ?? createLogger(process.env.TEST_LOG_LEVEL ?? 'silent', 'api-test'),
    metrics: createMetrics('api-test'),
    version: 'test',
    temporal: o.temporal,
    now: o.now,
  });
  const app = createApp(ctx, o.overrides);
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(o.port ?? 0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    deps: ctx,
    app,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }).then(() => ctx.stop()),
  };
}

type TestDatabase = Awaited<ReturnType<typeof createTestDatabase>>;

/**
 * The set-up most end-to-end files share: a fresh test database and the app over it, started before the file's tests
 * and closed after them. `options` may be built from the database (fixtures or stores the app needs at start). `t` and
 * `api` stand for the started ones, inside tests and hooks.
 */
export function useApi(options: ApiOptions | ((db: KnexDb) => ApiOptions | Promise<ApiOptions>) = {}) {
  let database: TestDatabase | undefined;
  let started: StartedApi | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    started = await startApi(database.db, typeof options === 'function' ? await options(database.db) : options);
  });
  afterAll(async () => {
    await started?.close();
    await database?.drop();
  });
  const need = <T>(v: T | undefined, what: string): T => {
    if (!v) throw new Error(`${what} is used before its beforeAll started it`);
    return v;
  };
  const t = {
    get db() {
      return need(database, 'the test database').db;
    },
    get url() {
      return need(database, 'the test database').url;
    },
  };
  const api = {
    get url() {
      return need(started, 'the API').url;
    },
    get deps() {
      return need(started, 'the API').deps;
    },
    get app() {
      return need(started, 'the API').app;
    },
    get server() {
      return need(started, 'the API').server;
    },
  };
  return { t, api };
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
