import { liveActivities } from '../../../activities/live';
import { mergeActivityAreas } from '../../../activities/activity-area';
import { createLiveStore, LIVE_SNAPSHOT } from '../../../db/live/live-store';
import { LIVE_PROJECTOR_WORKFLOW_ID } from '../../../workflows/live/live-projector-contract';
import { call, startApi } from '../../support/api-harness';
import { areaContext } from '../../support/area-context';
import { expectConforms } from '../../support/contract';
import { createTestDatabase } from '../../support/test-db';
import { startWorker, uniqueId } from '../../support/worker-harness';

/**
 * A worker start on the real Temporal server: the live list the previous run left is stale, however young, until the
 * projector's first refresh of this run. The projector here runs on a queue no worker polls, so that refresh never
 * comes until the test writes it.
 */
let t: Awaited<ReturnType<typeof createTestDatabase>>;
let w: Awaited<ReturnType<typeof startWorker>>;
let api: Awaited<ReturnType<typeof startApi>>;

beforeAll(async () => {
  t = await createTestDatabase();
  w = await startWorker(t.db);
  api = await startApi(t.db);
});
afterAll(async () => {
  await w.client.workflow
    .getHandle(LIVE_PROJECTOR_WORKFLOW_ID)
    .terminate('test over')
    .catch(() => undefined);
  await api.close();
  await w.stop();
  await t.drop();
});

const snapshot = (builtAt: Date) =>
  createLiveStore(t.db).writeSnapshot(
    LIVE_SNAPSHOT,
    JSON.stringify({ generated_at: builtAt.toISOString(), refresh_interval_s: 1, delay_s: 0, total_tracked: 0, count: 0, mints: [] }),
    0,
    builtAt,
  );
const settle = () => new Promise((r) => setTimeout(r, 600));

it('marks the pre-start live list stale from the worker start until the first fresh refresh', async () => {
  await snapshot(new Date());
  await settle();
  expect((await call(`${api.url}/api/live`)).body.stale).toBeUndefined();

  const ctx = { ...areaContext(t.db, { env: { TEMPORAL_TASK_QUEUE: uniqueId('unpolled') } }), temporal: w.client };
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
});
