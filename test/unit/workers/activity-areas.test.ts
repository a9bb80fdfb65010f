import { Client, Connection } from '@temporalio/client';
import { createActivities, createLiveTick, LIVE_CONSUMER_AREA_NAMES } from '../../../activities';
import { createLiveConsumers } from '../../../activities/live/live-consumers';
import { createReadPorts } from '../../../db/read-ports';
import { defineActivityArea, mergeActivityAreas, type WorkerContext } from '../../../activities/activity-area';
import { loadConfig } from '../../../platform/config';
import { createDb } from '../../../platform/db';
import { createLogger } from '../../../platform/logger';
import { asDb, type KnexDb } from '../../../db/knex-handle';

/** A worker context that connects to nothing: areas build their stores and clients, none of which does I/O until used. */
function idleContext(): WorkerContext & { db: KnexDb } {
  const cfg = loadConfig({});
  const db = asDb(createDb('postgres://127.0.0.1:1/none', 1));
  return {
    cfg,
    db,
    log: createLogger('silent', 'test'),
    temporal: new Client({ connection: Connection.lazy({ address: '127.0.0.1:1' }) }),
    now: () => new Date(0),
    liveConsumers: createLiveConsumers(),
    readPorts: createReadPorts(db, cfg),
  };
}

const area = (name: string, activity: string, value: string) =>
  defineActivityArea({ name, deps: () => ({ value }), activities: (d) => ({ [activity]: async () => d.value }) });
const first = defineActivityArea({ name: 'first', deps: () => ({ value: 'a' }), activities: (d) => ({ one: async () => d.value }) });
const second = defineActivityArea({ name: 'second', deps: () => ({ value: 'b' }), activities: (d) => ({ two: async () => d.value }) });

describe('activity areas', () => {
  it('refuses at start-up an activity name that two areas define', () => {
    const ctx = idleContext();
    expect(() => mergeActivityAreas([area('first', 'doIt', 'a'), area('second', 'doIt', 'b')], ctx)).toThrow(
      'activity doIt is defined by both the first and the second area',
    );
    void ctx.db.destroy();
  });

  it('merges the areas, each over its own dependencies, replaced per area by name', async () => {
    const ctx = idleContext();
    const { activities } = mergeActivityAreas([first, second] as const, ctx, { second: { value: 'replaced' } });
    expect(await activities.one()).toBe('a');
    expect(await activities.two()).toBe('replaced');
    await ctx.db.destroy();
  });

  it('builds the worker’s own areas with one owner per activity name', async () => {
    const ctx = idleContext();
    const names = Object.keys(createActivities(ctx).activities);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(
      expect.arrayContaining([
        'sampleHost',
        'fetchNativeCoinPrice',
        'scoreMint',
        'refreshLiveSnapshot',
        'recomputeAccuracy',
        'completeWalletSignup',
        'checkPayment',
        'recordExecutedBurn',
      ]),
    );
    await ctx.db.destroy();
    await ctx.temporal.connection.close();
  });

  it('runs the same consumers on the live tick in and outside the worker', async () => {
    const ctx = idleContext();
    createActivities(ctx);
    const inWorker = ctx.liveConsumers.all().map((c) => c.area);
    expect(inWorker).toEqual(LIVE_CONSUMER_AREA_NAMES);
    const outside = { ...ctx, liveConsumers: createLiveConsumers() };
    createLiveTick(outside);
    expect(outside.liveConsumers.all().map((c) => c.area)).toEqual(inWorker);
    await ctx.db.destroy();
    await ctx.temporal.connection.close();
  });
});
