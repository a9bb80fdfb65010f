import { loadConfig } from '../../../platform/config';
import { scheduleSpecs } from '../../../workers/schedules';
import { ensureSchedules } from '../../../workflows/schedule-starter';
import { VERDICT_SCHEDULE_ID, VERDICT_WORKFLOW, type VerdictRunResult } from '../../../workflows/verdict/verdict-contract';
import { call, startApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';
import { createTestDatabase } from '../../support/test-db';
import { insertBenchmark, insertTierCrosses } from '../../support/verdict-fixtures';
import { startWorker, uniqueId, useWorker } from '../../support/worker-harness';

const T0 = Date.parse('2026-11-01T00:00:00Z');
const H = 3_600_000;
const DAY = 24 * H;
const ENV = { VERDICT_T0_OVERRIDE: new Date(T0).toISOString() };
let nowMs = T0 + 3 * DAY;
let t: Awaited<ReturnType<typeof createTestDatabase>>;
let w: Awaited<ReturnType<typeof startWorker>>;
let api: Awaited<ReturnType<typeof startApi>>;

useWorker({ worker: { env: ENV, now: () => new Date(nowMs) }, api: { env: ENV } }, (bed) => ({ t, w, api } = bed));

describe('the verdict evaluator on Temporal', () => {
  it('reports what is missing, then locks once the window is complete and resolved, and stays locked', async () => {
    await insertTierCrosses(t.db, 'ACT', { n: 50, hits: 20, fromMs: T0 + H, everyMs: H });
    await insertTierCrosses(t.db, 'WATCH', { n: 50, hits: 10, fromMs: T0 + H, everyMs: H });
    await insertTierCrosses(t.db, 'SCOUT', { n: 50, hits: 4, fromMs: T0 + H, everyMs: H });
    await insertBenchmark(t.db, { n: 10_000, hits: 100, fromMs: T0, perHour: 500 });
    const run = async () => {
      const workflowId = uniqueId('verdict');
      const r: VerdictRunResult = await w.client.workflow.execute(VERDICT_WORKFLOW, { taskQueue: w.taskQueue, workflowId });
      return { r, workflowId };
    };
    const pending = await run();
    await w.maybeRecordHistory(pending.workflowId, 'verdict-pending');
    expect(pending.r).toEqual({ state: 'pending', preregistrationId: 'composite-tiers-v1', missing: ['days'] });

    nowMs = T0 + 15 * DAY + H;
    const locked = await run();
    await w.maybeRecordHistory(locked.workflowId, 'verdict-locked');
    expect(locked.r).toMatchObject({ state: 'locked', branch: 'confirmed', created: true });
    nowMs += DAY;
    expect((await run()).r).toEqual({ ...locked.r, created: false });
  });

  it('is run every hour by a Temporal Schedule declared in its contract', async () => {
    const spec = scheduleSpecs(loadConfig({})).find((s) => s.scheduleId === VERDICT_SCHEDULE_ID)!;
    expect(spec.everyS).toBe(3_600);
    // The verdict locked above: the Schedule's runs answer it without evaluating again, and the API serves it.
    const scheduleId = uniqueId('schedule:verdict');
    await ensureSchedules(w.client, w.taskQueue, [{ ...spec, scheduleId, workflowIdPrefix: uniqueId('verdict') }], true);
    try {
      const handle = w.client.schedule.getHandle(scheduleId);
      let runs = 0;
      for (let i = 0; i < 100 && runs === 0; i++) {
        await new Promise((res) => setTimeout(res, 200));
        runs = (await handle.describe()).info.recentActions.length;
      }
      expect(runs).toBeGreaterThan(0);
      const r = await call(`${api.url}/api/verdict`);
      expectConforms('get', '/api/verdict', 200, r.body);
      expect(r.body).toMatchObject({ verdict: 'supported', branch: 'confirmed' });
    } finally {
      await w.client.schedule.getHandle(scheduleId).delete();
    }
  });
});
