import { loadConfig } from '../../../platform/config';
import { scheduleSpecs } from '../../../workers/schedules';
import { ensureSchedules } from '../../../workflows/schedule-starter';
import { GATE_VALIDATION_SCHEDULE_ID, GATE_VALIDATION_WORKFLOW, type GateValidationRunResult } from '../../../workflows/accuracy/gate-validation-contract';
import { call, startApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';
import { insertGateFires } from '../../support/gate-validation-fixtures';
import { createTestDatabase } from '../../support/test-db';
import { startWorker, uniqueId } from '../../support/worker-harness';

const B = Date.parse('2026-12-10T00:00:00Z');
let nowMs = B + 3_600_000 + 60_000;
let t: Awaited<ReturnType<typeof createTestDatabase>>;
let w: Awaited<ReturnType<typeof startWorker>>;
let api: Awaited<ReturnType<typeof startApi>>;

beforeAll(async () => {
  t = await createTestDatabase();
  w = await startWorker(t.db, { now: () => new Date(nowMs) });
  api = await startApi(t.db);
});
afterAll(async () => {
  await api.close();
  await w.stop();
  await t.drop();
});

describe('gate validation on Temporal', () => {
  it('runs once per hour: a second run in the same hour answers the stored run', async () => {
    await insertGateFires(t.db, B, { n: 15, hits: 9, survival: 0.7 });
    await insertGateFires(t.db, B + 8 * 60_000, { n: 15, hits: 3, survival: 0.3 });
    const workflowId = uniqueId('gate');
    const first: GateValidationRunResult = await w.client.workflow.execute(GATE_VALIDATION_WORKFLOW, { taskQueue: w.taskQueue, workflowId });
    await w.maybeRecordHistory(workflowId, 'gate-validation');
    expect(first).toMatchObject({ decision: 'validates', n: 30, created: true, windowEnd: new Date(B + 3_600_000).toISOString() });
    const again: GateValidationRunResult = await w.client.workflow.execute(GATE_VALIDATION_WORKFLOW, { taskQueue: w.taskQueue, workflowId: uniqueId('gate') });
    expect(again).toEqual({ ...first, created: false });
  });

  it('is run every hour by a Temporal Schedule declared in its contract', async () => {
    const spec = scheduleSpecs(loadConfig({})).find((s) => s.scheduleId === GATE_VALIDATION_SCHEDULE_ID)!;
    expect(spec).toBeDefined();
    nowMs += 3_600_000;
    const scheduleId = uniqueId('schedule:gate-validation');
    await ensureSchedules(w.client, w.taskQueue, [{ ...spec, scheduleId, workflowIdPrefix: uniqueId('gate-validation') }], true);
    try {
      let body: any;
      for (let i = 0; i < 100 && body?.count !== 2; i++) {
        await new Promise((res) => setTimeout(res, 200));
        body = (await call(`${api.url}/api/gate_validation?history=10`)).body;
      }
      expectConforms('get', '/api/gate_validation', 200, body);
      expect(body.runs.map((r: any) => r.window_end)).toEqual([new Date(B + 2 * 3_600_000).toISOString(), new Date(B + 3_600_000).toISOString()]);
      expect(body.runs[0]).toMatchObject({ decision: 'validates', suppression_active: true });
    } finally {
      await w.client.schedule.getHandle(scheduleId).delete();
    }
  });
});
