import { createLaunchEventStore } from '../../../db/mint/launch-event-store';
import type { LaunchEvent } from '../../../domain/launch/launch-events';
import { createMarketSimulator } from '../../../ingest/simulator/market-simulator';
import { MARKET_CONDITIONS_WORKFLOW } from '../../../workflows/market/market-conditions-contract';
import type { ConditionsRefreshResult } from '../../../workflows/market/market-conditions-contract';
import { call, startApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';
import { createTestDatabase } from '../../support/test-db';
import { startWorker, uniqueId, useWorker } from '../../support/worker-harness';

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let w: Awaited<ReturnType<typeof startWorker>>;
let api: Awaited<ReturnType<typeof startApi>>;
const H = 3_600_000;

useWorker({ api: {} }, (bed) => ({ t, w, api } = bed));

const refresh = async (name: string): Promise<ConditionsRefreshResult> => {
  const workflowId = uniqueId('market-conditions');
  const result = await w.client.workflow.execute(MARKET_CONDITIONS_WORKFLOW, { taskQueue: w.taskQueue, workflowId });
  await w.maybeRecordHistory(workflowId, name);
  return result as ConditionsRefreshResult;
};

const simulate = (seed: number, launchesPerSecond: number, fromMs: number, toMs: number): LaunchEvent[] => [
  ...createMarketSimulator({ seed, launchesPerSecond, graduationShare: 0.05 }).events(fromMs, toMs),
];

describe('market conditions workflow → hourly rollups → GET /api/v1/conditions', () => {
  it('answers a documented 503 before anything was computed and while history is short', async () => {
    let r = await call(`${api.url}/api/v1/conditions`);
    expect(r.status).toBe(503);
    expectConforms('get', '/api/v1/conditions', 503, r.body);

    expect(await refresh('conditions-warming')).toEqual({ state: 'warming', historyHours: 0, rolledHours: 0, temperature: null });
    r = await call(`${api.url}/api/v1/conditions`);
    expect(r.status).toBe(503);
    expect(r.body.message).toMatch(/0 of the 24 complete hours/);
  });

  it('ranks a hot last hour against 30 quiet hours of our own history', async () => {
    const now = Date.now();
    const store = createLaunchEventStore(t.db);
    // A quiet day and a bit (about 4 launches an hour), then an hour at ten times that.
    const quiet = simulate(11, 0.001, now - 31 * H, now - H);
    const hot = simulate(12, 0.012, now - H, now);
    for (let i = 0; i < quiet.length; i += 2000) await store.writeBatch(quiet.slice(i, i + 2000));
    await store.writeBatch(hot);

    const result = await refresh('conditions-ready');
    expect(result.state).toBe('ready');
    expect(result.historyHours).toBeGreaterThanOrEqual(29);
    expect(result.historyHours).toBeLessThanOrEqual(31);
    expect(result.rolledHours).toBe(result.historyHours); // every hour rolled up once, within one run's bound

    const r = await call(`${api.url}/api/v1/conditions`);
    expect(r.status).toBe(200);
    expectConforms('get', '/api/v1/conditions', 200, r.body);
    const launch = r.body.components.find((c: { name: string }) => c.name === 'launch_rate');
    const launchesLastHour = hot.filter((e) => e.kind === 'create').length;
    expect(launch).toMatchObject({ value: launchesLastHour, window: '1h' });
    // Above every quiet hour; only the last complete hour, which the trailing hour overlaps, may hold as many.
    expect(launch.percentile).toBeGreaterThanOrEqual(1 - 1 / result.historyHours);
    expect(r.body.temperature).toBe(result.temperature);
    expect(['warm', 'hot']).toContain(r.body.label);
    expect(r.body.history_coverage_days).toBeCloseTo(result.historyHours / 24, 2);

    // The rollup is the fact tables' own count, hour by hour.
    const { rows } = await t.db.raw(
      `SELECT h.hour, h.launches, (SELECT count(*) FROM mints m WHERE m.created_at >= h.hour AND m.created_at < h.hour + interval '1 hour')::int AS actual FROM market_hourly h`,
    );
    expect(rows.length).toBe(result.historyHours);
    for (const row of rows as { launches: number; actual: number }[]) expect(row.launches).toBe(row.actual);
  });

  it('re-running re-rolls only the most recent hours and keeps the history as it was', async () => {
    const before = await t.db('market_hourly').count<{ count: number }[]>('* as count');
    const result = await refresh('conditions-rerun');
    expect(result.state).toBe('ready');
    expect(result.rolledHours).toBe(2);
    const after = await t.db('market_hourly').count<{ count: number }[]>('* as count');
    expect(after[0]!.count).toBe(before[0]!.count);
  });
});
