import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { createLaunchEventStore } from '../../../db/mint/launch-event-store';
import { createPredictionStore } from '../../../db/mint/prediction-store';
import { createPriceStore } from '../../../db/market/price-store';
import { seedSimulatedSmartWallets } from '../../../db/wallets/simulated-wallet-seed';
import { WSOL_MINT } from '../../../domain/market/native-coin';
import { createIngestPipeline } from '../../../ingest/pipeline/ingest-pipeline';
import { mintAddress } from '../../../ingest/simulator/address-book';
import { SeededRandom } from '../../../ingest/simulator/seeded-random';
import { simulatedSmartWallets } from '../../../ingest/simulator/simulated-smart-wallets';
import { createLogger } from '../../../platform/logger';
import { LIVE_PROJECTOR_WORKFLOW, tradesIngestedSignal, type LiveProjectorInput } from '../../../workflows/live/live-projector-contract';
import { createLiveProjectorWaker } from '../../../workflows/live/live-projector-starter';
import { DEFAULT_TIMING } from '../../../workflows/mint/mint-lifecycle-contract';
import { createMintLifecycleStarter } from '../../../workflows/mint/mint-lifecycle-starter';
import { issueTestKey } from '../../support/access-keys';
import { afterBeta, startApi } from '../../support/api-harness';
import { handBuiltMint } from '../../support/hand-built-mint';
import { createTestDatabase } from '../../support/test-db';
import { keyedApi } from '../../support/typed-api';
import { startWorker, uniqueId } from '../../support/worker-harness';

const WAKE_SPACING_MS = 200;

/**
 * Trade-driven evaluation: ingest commits a trade that makes a composite cross, wakes the live projector, and the
 * signal is in /api/v1/signals within seconds, while the projector's periodic refresh is a minute away. Every
 * answer is checked against openapi.yaml (typed client). A second wake evaluates again and changes nothing: the
 * cross is recorded once. Then a short run shows the workflow's new command sequence (recorded for replay).
 */
type HistoryEvent = { eventType: string; activityTaskScheduledEventAttributes?: { activityType: { name: string } } };

const SEED = 11;
const REFRESH_MS = 60_000;
const rng = new SeededRandom(97);

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let w: Awaited<ReturnType<typeof startWorker>>;
let api: Awaited<ReturnType<typeof startApi>>;
let builder: Awaited<ReturnType<typeof issueTestKey>>;

beforeAll(async () => {
  t = await createTestDatabase();
  w = await startWorker(t.db, { env: { LIVE_REFRESH_MS: String(REFRESH_MS) } });
  api = await startApi(t.db, { env: afterBeta() });
  builder = await issueTestKey(t.db, 'builder');
}, 60_000);
afterAll(async () => {
  await api.close();
  await w.stop();
  await t.drop();
});

const http = keyedApi(
  () => api.url,
  () => builder,
);

async function waitFor<T>(what: string, cond: () => Promise<T | false | undefined>, timeoutMs: number): Promise<T> {
  for (const until = Date.now() + timeoutMs; ; await new Promise((r) => setTimeout(r, 100))) {
    const v = await cond();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
  }
}

const historyOf = async (workflowId: string, runId?: string) =>
  (JSON.parse(historyToJSON(await w.client.workflow.getHandle(workflowId, runId).fetchHistory())) as { events: HistoryEvent[] }).events;
const scheduledActivities = async (workflowId: string, runId?: string) =>
  (await historyOf(workflowId, runId))
    .filter((e) => e.eventType === 'EVENT_TYPE_ACTIVITY_TASK_SCHEDULED')
    .map((e) => e.activityTaskScheduledEventAttributes!.activityType.name);
const completedActivities = async (workflowId: string) =>
  (await historyOf(workflowId)).filter((e) => e.eventType === 'EVENT_TYPE_ACTIVITY_TASK_COMPLETED').length;

const signalsNow = async () => {
  const r = await http.GET('/api/v1/signals', { params: { query: { since: 0, limit: 100 } } });
  expect(r.response.status).toBe(200);
  return r.data!.signals;
};

describe('trade-driven composite evaluation', () => {
  it('delivers a cross made by an ingested trade within seconds, long before the next refresh, once', async () => {
    const smart = simulatedSmartWallets(SEED)[0]!;
    expect(await seedSimulatedSmartWallets(t.db, simulatedSmartWallets(SEED), new Date())).toBe(500);
    // 65 s old, its 60 s score logged (ACT): inside the composite window (120 s), and the tier is known at the cross.
    const createdAt = Date.now() - 65_000;
    const m = handBuiltMint({ mint: mintAddress(rng), creator: mintAddress(rng), at: createdAt });
    m.buy(5, mintAddress(rng), 1);
    m.buy(20, mintAddress(rng), 1.5);
    // A quiet neighbour: more samples for the threshold (30 needed), never a cross.
    const quiet = handBuiltMint({ mint: mintAddress(rng), creator: mintAddress(rng), at: createdAt + 5_000 });
    quiet.buy(3, mintAddress(rng), 0.5);
    const store = createLaunchEventStore(t.db);
    await store.writeBatch([m.create, ...m.trades, quiet.create, ...quiet.trades]);
    await createPredictionStore(t.db).insertOnce({
      mint: m.create.mint,
      ageBucket: 60,
      asOf: new Date(createdAt + 60_000),
      predictedAt: new Date(),
      gradProb: 0.4,
      rawProb: 0.4,
      modelVersion: 'test',
      features: {},
      calibration: {},
      priceSol: 1e-8,
      rugProb: null,
      runnerOdds: null,
      survivalProb: null,
      modelVersions: {},
      rugFeatures: {},
      context: {},
    });

    const workflowId = uniqueId('live-projector');
    const input: LiveProjectorInput = { intervalMs: REFRESH_MS, iterationsPerRun: 500 };
    const handle = await w.client.workflow.start(LIVE_PROJECTOR_WORKFLOW, { taskQueue: w.taskQueue, workflowId, args: [input] });
    const waker = createLiveProjectorWaker(w.client, { minSpacingMs: WAKE_SPACING_MS, workflowId });
    const pipeline = createIngestPipeline({
      store,
      starter: createMintLifecycleStarter(w.client, w.taskQueue, DEFAULT_TIMING),
      log: createLogger('silent', 'ingest-test'),
      now: () => new Date(),
      tradesDurable: () => waker.wake(),
    });
    try {
      // The first refresh tracks both mints and samples their ticks (no smart money yet: score 0, no cross).
      await waitFor('the first refresh', async () => (await completedActivities(workflowId)) >= 1, 30_000);
      const refreshedAt = Date.now();
      expect(await signalsNow()).toEqual([]);
      await createPriceStore(t.db).recordQuote({ symbol: 'SOL', mint: WSOL_MINT, usd: 150, source: 'test', fetchedAt: new Date() });

      // A smart wallet buys: smart_money_in 1, the price (and market cap, ~7,600 USD) up; the score is above the threshold.
      m.buy((Date.now() - createdAt) / 1000, smart, 8);
      const tradeAt = Date.now();
      await pipeline.handle([m.trades[m.trades.length - 1]!]);
      const signals = await waitFor('the signal in the feed', async () => ((await signalsNow()).length ? signalsNow() : false), 20_000);
      const seenAt = Date.now();
      // The next refresh cannot have run: it is a minute after the first.
      expect(seenAt).toBeLessThan(refreshedAt + REFRESH_MS - 20_000);
      expect(seenAt - tradeAt).toBeLessThan(20_000);
      expect(signals).toHaveLength(1);
      expect(signals[0]).toMatchObject({ mint: m.create.mint, tier: 'ACT', gp_60: 0.4, smart_money_in: 1 });
      expect(await scheduledActivities(workflowId)).toEqual(['refreshLiveSnapshot', 'evaluateNewTrades']);

      // The same wallet buys again: another wake, another evaluation, and still one cross and one signal.
      m.buy((Date.now() - createdAt) / 1000, smart, 1);
      await pipeline.handle([m.trades[m.trades.length - 1]!]);
      await waitFor('the second evaluation', async () => (await completedActivities(workflowId)) >= 3, 20_000);
      expect(await scheduledActivities(workflowId)).toEqual(['refreshLiveSnapshot', 'evaluateNewTrades', 'evaluateNewTrades']);
      expect(await signalsNow()).toHaveLength(1);
      const log = await http.GET('/api/v1/composite_predictions', { params: { query: { limit: 10 } } });
      expect(log.response.status).toBe(200);
      expect(log.data!.total).toBe(1);
      expect(log.data!.rows[0]).toMatchObject({ mint: m.create.mint, smart_money_in: 1 });

      // A burst of committed batches is spaced by the waker: one signal at once and one trailing, not one per batch.
      // (First past the spacing since the last wake, or the burst's first signal would itself be the trailing one.)
      await new Promise((r) => setTimeout(r, 2 * WAKE_SPACING_MS));
      for (let i = 0; i < 20; i++) waker.wake();
      await new Promise((r) => setTimeout(r, 2000));
      const signalled = (await historyOf(workflowId)).filter((e) => e.eventType === 'EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED').length;
      expect(signalled).toBe(4);
    } finally {
      waker.stop();
      await handle.terminate('test over');
    }
  }, 120_000);

  it('runs a woken evaluation between refreshes and continues as new with its input', async () => {
    const workflowId = uniqueId('live-projector');
    const input: LiveProjectorInput = { intervalMs: 1500, iterationsPerRun: 2 };
    const handle = await w.client.workflow.start(LIVE_PROJECTOR_WORKFLOW, { taskQueue: w.taskQueue, workflowId, args: [input] });
    const firstRunId = handle.firstExecutionRunId;
    try {
      // Sent before the first refresh ends: kept, and evaluated right after it.
      await handle.signal(tradesIngestedSignal);
      const first = w.client.workflow.getHandle(workflowId, firstRunId);
      await waitFor('the first run to continue as new', async () => (await first.describe()).status.name === 'CONTINUED_AS_NEW', 30_000);
      expect(await scheduledActivities(workflowId, firstRunId)).toEqual(['refreshLiveSnapshot', 'evaluateNewTrades', 'refreshLiveSnapshot']);
      await w.maybeRecordHistory(workflowId, 'live-projector-woken-continued-as-new', firstRunId);
    } finally {
      await handle.terminate('test over');
    }
  }, 60_000);
});
