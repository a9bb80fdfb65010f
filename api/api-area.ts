import type { Server } from 'node:http';
import type { Client } from '@temporalio/client';
import type { RequestHandler, Router } from 'express';
import { LatencyWindow } from '../domain/ops/latency-window';
import type { OverridesByName } from '../platform/area-types';
import type { Config } from '../platform/config';
import type { Db } from '../db/db-handle';
import { createReadPorts, type ReadPorts } from '../db/read-ports';
import type { Logger } from '../platform/logger';
import type { Metrics } from '../platform/metrics';
import { createDependencyProbe, type DependencyProbe } from './http/dependency-probe';
import { createKeyedReads, type KeyedReads } from './http/keyed-reads';
import { createPublicReads, type PublicReads } from './http/public-reads';

/** Temporal as the API reaches it: commands that run as workflows, and whether the service answers (for /api/health). */
export type ApiTemporal = { client: Client; taskQueue: string; probe: DependencyProbe };

/** The shared pieces of an API process; each area builds its own stores and clients from them. */
export type ApiContext = {
  cfg: Config;
  db: Db;
  log: Logger;
  metrics: Metrics;
  now: () => Date;
  startedAt: Date;
  version: string;
  /** Absent when the process runs without Temporal: commands that start workflows answer 503. */
  temporal: ApiTemporal | undefined;
  /** Latencies of /api/live in this process, recorded by the app and reported by /api/status. */
  liveLatency: LatencyWindow;
  /** The public reads answered from memory before the app (api/http/public-reads.ts); routes register theirs. */
  publicReads: PublicReads;
  /** The keyed reads answered before the app's router (api/http/keyed-reads.ts); routes register theirs, the access area its check. */
  keyedReads: KeyedReads;
  /** Reads a read model takes from an area built on its own (db/read-ports.ts), wired once per process. */
  readPorts: ReadPorts;
  /** Registers what an area must do when the process stops, before the pool closes (the composition root calls `stop`). */
  onStop: (fn: () => Promise<void>) => void;
  stop: () => Promise<void>;
};

export function createApiContext(o: {
  cfg: Config;
  db: Db;
  log: Logger;
  metrics: Metrics;
  version: string;
  temporal?: { client: Client; taskQueue: string };
  now?: () => Date;
}): ApiContext {
  const now = o.now ?? (() => new Date());
  const stopHooks: (() => Promise<void>)[] = [];
  const temporal = o.temporal && {
    ...o.temporal,
    probe: createDependencyProbe(() => o.temporal!.client.workflowService.getSystemInfo({}), { ttlMs: 2000, timeoutMs: 2000 }),
  };
  return {
    cfg: o.cfg,
    db: o.db,
    log: o.log,
    metrics: o.metrics,
    now,
    startedAt: now(),
    version: o.version,
    temporal,
    liveLatency: new LatencyWindow(5 * 60_000),
    publicReads: createPublicReads(),
    keyedReads: createKeyedReads(),
    readPorts: createReadPorts(o.db, o.cfg),
    onStop: (fn) => void stopHooks.push(fn),
    // A hook that fails (its database gone) must not keep the others, or the process, from stopping.
    stop: async () => void (await Promise.allSettled(stopHooks.map((fn) => fn()))),
  };
}

/** What an area adds to the app, each part mounted with every other area's same part (api/app.ts). */
export type ApiAreaParts = {
  /** Served outside openapi.yaml (HTML pages, the docs): mounted before body parsing and request validation. */
  pages?: Router;
  /** Run after request validation on every operation, before any route (keys and quotas, rate limits). */
  guards?: RequestHandler[];
  /** The area's operations, each router mounted in turn. */
  routes?: Router[];
  /** Attached to the HTTP server `app.listen` makes, outside Express (websocket upgrades). */
  servers?: ((server: Server) => void)[];
};

/** One business area of the API: how it builds its dependencies from the process's context, and its parts over them. */
export type ApiArea<Name extends string, Deps> = { name: Name; deps(ctx: ApiContext): Deps; parts(d: Deps): ApiAreaParts };

export const defineApiArea = <Name extends string, Deps>(area: ApiArea<Name, Deps>) => area;

type AnyApiArea = ApiArea<string, any>;
export type ApiAreaOverrides<Areas extends readonly AnyApiArea[]> = OverridesByName<Areas[number]>;

/** Every area's parts over one context, grouped by kind in the areas' order. */
export function buildApiAreas<Areas extends readonly AnyApiArea[]>(areas: Areas, ctx: ApiContext, overrides: ApiAreaOverrides<Areas> = {}) {
  const parts = areas.map((a) => a.parts({ ...a.deps(ctx), ...(overrides as Record<string, object | undefined>)[a.name] }));
  return {
    pages: parts.flatMap((p) => (p.pages ? [p.pages] : [])),
    guards: parts.flatMap((p) => p.guards ?? []),
    routes: parts.flatMap((p) => p.routes ?? []),
    servers: parts.flatMap((p) => p.servers ?? []),
  };
}
