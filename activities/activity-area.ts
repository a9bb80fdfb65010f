import type { Client } from '@temporalio/client';
import type { Config } from '../platform/config';
import type { Db } from '../db/db-handle';
import type { ReadPorts } from '../db/read-ports';
import type { OverridesByName, UnionToIntersection } from '../platform/area-types';
import type { Logger } from '../platform/logger';
import type { LiveConsumers } from './live/live-consumers';

/**
 * The shared pieces of a worker process; each activity area builds its own stores and clients from them. Areas that
 * run on the live tick register their consumer in `liveConsumers` (activities/live/live-consumers.ts); read models that
 * take a read from an area built on theirs get it from `readPorts` (db/read-ports.ts).
 */
export type WorkerContext = { cfg: Config; db: Db; log: Logger; temporal: Client; now: () => Date; liveConsumers: LiveConsumers; readPorts: ReadPorts };

type ActivityFns = Record<string, (...args: any[]) => Promise<unknown>>;

/**
 * One business area's activities: how it builds its dependencies from the worker's context (an area states the
 * part of the context it needs, so a script can build one without Temporal), the activities over them, and what the
 * area starts with the worker process.
 */
export type ActivityArea<Name extends string, Ctx, Deps, Acts extends ActivityFns> = {
  name: Name;
  deps(ctx: Ctx): Deps;
  activities(d: Deps): Acts;
  /** Starts what the area runs for as long as the worker does (a timer, a long-running workflow); returns its stop. */
  start?(d: Deps, ctx: WorkerContext): Promise<() => void>;
};

export function defineActivityArea<Name extends string, Ctx extends Partial<WorkerContext>, Deps, Acts extends ActivityFns>(
  area: ActivityArea<Name, Ctx, Deps, Acts>,
) {
  return {
    ...area,
    /** The area's activities alone, with some dependencies replaced (tests, scripts). */
    create: (ctx: Ctx, overrides: Partial<Deps> = {}): Acts => area.activities({ ...area.deps(ctx), ...overrides }),
  };
}

type AnyArea = ActivityArea<string, any, any, ActivityFns>;

/** Every area's activities in one object, as the worker registers them. */
export type MergedActivities<Areas extends readonly AnyArea[]> = UnionToIntersection<ReturnType<Areas[number]['activities']>>;
/** Dependencies a test replaces, per area by name. */
export type AreaOverrides<Areas extends readonly AnyArea[]> = OverridesByName<Areas[number]>;

/**
 * Builds every area's activities over one context and merges them. Temporal knows an activity by its name alone,
 * so a name two areas define would silently run one of them: that stops the worker at start-up instead.
 */
export function mergeActivityAreas<Areas extends readonly AnyArea[]>(areas: Areas, ctx: WorkerContext, overrides: AreaOverrides<Areas> = {}) {
  const activities: Record<string, ActivityFns[string]> = {};
  const owner = new Map<string, string>();
  const starts: (() => Promise<() => void>)[] = [];
  for (const area of areas) {
    const deps = { ...area.deps(ctx), ...(overrides as Record<string, object | undefined>)[area.name] };
    for (const [name, fn] of Object.entries(area.activities(deps))) {
      const other = owner.get(name);
      if (other) throw new Error(`activity ${name} is defined by both the ${other} and the ${area.name} area`);
      owner.set(name, area.name);
      activities[name] = fn;
    }
    if (area.start) starts.push(() => area.start!(deps, ctx));
  }
  return {
    activities: activities as MergedActivities<Areas>,
    /** Starts what every area runs with the worker (the production worker; tests start what they test); returns one stop. */
    async start(): Promise<() => void> {
      const stops: (() => void)[] = [];
      for (const start of starts) stops.push(await start());
      return () => stops.forEach((stop) => stop());
    },
  };
}
