import { WorkflowIdReusePolicy } from '@temporalio/client';
import { createHeartbeatStore } from '../../../db/ops/heartbeat-store';
import { WATCHDOG_WORKFLOW } from '../../../workflows/ops/watchdog-contract';
import { call, startApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';
import { createTestDatabase } from '../../support/test-db';
import { startWorker, uniqueId } from '../../support/worker-harness';

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let w: Awaited<ReturnType<typeof startWorker>>;
let api: Awaited<ReturnType<typeof startApi>>;

beforeAll(async () => {
  t = await createTestDatabase();
  // `ingest` is expected but never beats here, so the watchdog has something to alert on.
  w = await startWorker(t.db, {
    env: { EXPECTED_DAEMONS: 'api,worker,ingest' },
    overrides: { ops: { workflowDeadlinesS: { watchdogTick: 300, stuckProbe: 1 } } },
  });
  api = await startApi(t.db);
});
afterAll(async () => {
  await api.close();
  await w.stop();
  await t.drop();
});

const tick = async (name?: string) => {
  const workflowId = uniqueId('watchdog');
  const result = await w.client.workflow.execute(WATCHDOG_WORKFLOW, { taskQueue: w.taskQueue, workflowId });
  if (name) await w.maybeRecordHistory(workflowId, name);
  return { workflowId, result };
};

describe('watchdog workflow → Postgres → GET /api/health', () => {
  it('samples the host, raises an alert for a silent daemon, and clears it once the daemon beats', async () => {
    const hb = createHeartbeatStore(t.db);
    const now = new Date();
    await hb.beat('api', 'h:1', now, now);
    await hb.beat('worker', 'h:2', now, now);

    const first = await tick('watchdog-raises-alert');
    expect(first.result.raised).toEqual(['heartbeat_stale:ingest']);
    let r = await call(`${api.url}/api/health`);
    expectConforms('get', '/api/health', 200, r.body);
    expect(r.body.status).toBe('degraded');
    expect(r.body.tick.stale_heartbeats).toEqual(['ingest']);
    expect(r.body.tick.disk.total_bytes).toBeGreaterThan(0);
    expect(r.body.alerts.map((a: { code: string }) => a.code)).toEqual(['heartbeat_stale:ingest']);

    await hb.beat('ingest', 'h:3', new Date(), new Date());
    const second = await tick('watchdog-clears-alert');
    expect(second.result.cleared).toEqual(['heartbeat_stale:ingest']);
    r = await call(`${api.url}/api/health`);
    expect(r.body.alerts).toEqual([]);
    expect(r.body.reasons.map((x: { code: string }) => x.code)).not.toContain('alert:heartbeat_stale:ingest');

    // The tick's schedule run counts as the scheduler's heartbeat.
    const status = await call(`${api.url}/api/status`);
    expect(status.body.daemons.find((d: { name: string }) => d.name === 'scheduler').state).toBe('up');
  });

  it('counts workflows open past their deadline as stuck', async () => {
    // A workflow on a task queue no worker polls stays open: past its 1 s deadline it is stuck.
    const stuckId = uniqueId('stuck');
    const handle = await w.client.workflow.start('stuckProbe', {
      taskQueue: uniqueId('nobody-polls'),
      workflowId: stuckId,
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    });
    try {
      await new Promise((r) => setTimeout(r, 2500));
      const { result } = await tick();
      expect(result.raised).toContain('stuck_workflows');
      const r = await call(`${api.url}/api/health`);
      expect(r.body.tick.stuck_workflows.by_type.stuckProbe).toBeGreaterThanOrEqual(1);
    } finally {
      await handle.terminate('test done');
    }
  });
});
