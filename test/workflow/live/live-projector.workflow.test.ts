import { liveActivities } from '../../../activities/live';
import { mergeActivityAreas } from '../../../activities/activity-area';
import { createLiveStore, LIVE_SNAPSHOT } from '../../../db/live/live-store';
import { LIVE_PROJECTOR_WORKFLOW_ID } from '../../../workflows/live/live-projector-contract';
import { areaContext } from '../../support/area-context';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { LIVE_PROJECTOR_WORKFLOW, type LiveProjectorInput } from '../../../workflows/live/live-projector-contract';
import { call, startApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';
import { createTestDatabase } from '../../support/test-db';
import { startWorker, uniqueId } from '../../support/worker-harness';

type HistoryEvent = {
  eventType: string;
  activityTaskScheduledEventAttributes?: { activityType: { name: string } };
  workflowExecutionContinuedAsNewEventAttributes?: { input: { payloads: { data: string }[] } };
};

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let w: Awaited<ReturnType<typeof startWorker>>;
let api: Awaited<ReturnType<typeof startApi>>;

beforeAll(async () => {
  t = await createTestDatabase();
  w = await startWorker(t.db);
  api = await startApi(t.db);
});
afterAll(async () => {
  await api.close();
  await w.stop();
  await t.drop();
});

const snapshotVersion = async () => Number((await t.db('live_snapshots').where({ name: 'live' }).first())?.version ?? 0);

async function waitFor<T>(what: string, cond: () => Promise<T | false | undefined>, timeoutMs = 20_000): Promise<T> {
  for (const until = Date.now() + timeoutMs; ; await new Promise((r) => setTimeout(r, 100))) {
    const v = await cond();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
  }
}

describe('live projector workflow', () => {
  it('refreshes the live list every interval, continues as new after its iterations with the same input, and keeps refreshing', async () => {
    const workflowId = uniqueId('live-projector');
    const input: LiveProjectorInput = { intervalMs: 200, iterationsPerRun: 3 };
    const handle = await w.client.workflow.start(LIVE_PROJECTOR_WORKFLOW, { taskQueue: w.taskQueue, workflowId, args: [input] });
    const firstRunId = handle.firstExecutionRunId;
    try {
      const first = w.client.workflow.getHandle(workflowId, firstRunId);
      await waitFor('the first run to continue as new', async () => (await first.describe()).status.name === 'CONTINUED_AS_NEW');

      // The first run refreshed exactly `iterationsPerRun` times, then handed the same input to its successor.
      const { events } = JSON.parse(historyToJSON(await first.fetchHistory())) as { events: HistoryEvent[] };
      const scheduled = events.filter((e) => e.eventType === 'EVENT_TYPE_ACTIVITY_TASK_SCHEDULED');
      expect(scheduled.map((e) => e.activityTaskScheduledEventAttributes!.activityType.name)).toEqual([
        'refreshLiveSnapshot',
        'refreshLiveSnapshot',
        'refreshLiveSnapshot',
      ]);
      const last = events[events.length - 1]!;
      expect(last.eventType).toBe('EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW');
      const carried = last.workflowExecutionContinuedAsNewEventAttributes!.input.payloads[0]!;
      expect(JSON.parse(Buffer.from(carried.data, 'base64').toString())).toEqual(input);
      await w.maybeRecordHistory(workflowId, 'live-projector-continued-as-new', firstRunId);

      // The new run is the one running now, and it goes on refreshing the list the API serves.
      const next = await handle.describe();
      expect(next.runId).not.toBe(firstRunId);
      expect(next.status.name).toBe('RUNNING');
      const version = await snapshotVersion();
      expect(version).toBeGreaterThanOrEqual(3);
      await waitFor('a refresh by the new run', async () => (await snapshotVersion()) > version);
      const r = await call(`${api.url}/api/live`);
      expect(r.status).toBe(200);
      expectConforms('get', '/api/live', 200, r.body);
      expect(await w.metrics.registry.getSingleMetricAsString('temporal_workflow_outcomes_total')).toMatch(
        /workflow_type="liveProjector",outcome="continued_as_new"[^\n]* [1-9]/,
      );
    } finally {
      await handle.terminate('test over');
    }
  });

  it("after a worker start, marks the previous run's live list stale until the projector's first fresh refresh", async () => {
    const snapshot = (builtAt: Date) =>
      createLiveStore(t.db).writeSnapshot(
        LIVE_SNAPSHOT,
        JSON.stringify({ generated_at: builtAt.toISOString(), refresh_interval_s: 1, delay_s: 0, total_tracked: 0, count: 0, mints: [] }),
        0,
        builtAt,
      );
    // Past the API's 500 ms version check.
    const settle = () => new Promise((r) => setTimeout(r, 600));
    await snapshot(new Date());
    await settle();
    expect((await call(`${api.url}/api/live`)).body.stale).toBeUndefined();

    // The live area's start, with its projector on a queue no worker polls: this run's first refresh never comes
    // until the test writes it.
    const ctx = { ...areaContext(t.db, { env: { TEMPORAL_TASK_QUEUE: uniqueId('unpolled') } }), temporal: w.client };
    try {
      const stop = await mergeActivityAreas([liveActivities], ctx).start();
      stop();
      await settle();
      const stale = await call(`${api.url}/api/live`);
      expect(stale.status).toBe(200);
      expectConforms('get', '/api/live', 200, stale.body);
      expect(stale.body.stale).toBe(true);
      const health = await call(`${api.url}/api/health`);
      expect(health.body.status).toBe('degraded');
      expect(health.body.reasons.map((r: { code: string }) => r.code)).toContain('live_list_stale');

      await snapshot(new Date()); // the projector's first refresh of the new run
      await settle();
      expect((await call(`${api.url}/api/live`)).body.stale).toBeUndefined();
    } finally {
      await w.client.workflow
        .getHandle(LIVE_PROJECTOR_WORKFLOW_ID)
        .terminate('test over')
        .catch(() => undefined);
    }
  });
});
