import { Client, Connection } from '@temporalio/client';
import { createLaunchEventStore } from '../../../db/mint/launch-event-store';
import { createIngestPipeline } from '../../../ingest/pipeline/ingest-pipeline';
import { createMarketSimulator } from '../../../ingest/simulator/market-simulator';
import { createLogger } from '../../../platform/logger';
import { startDaemon } from '../../../scripts/lib/daemon-process';
import { freePort } from '../../../scripts/lib/local-temporal';
import { waitFor } from '../../../scripts/lib/run';
import { createMintLifecycleStarter } from '../../../workflows/mint/mint-lifecycle-starter';
import { mintWorkflowId, type LifecycleState, type LifecycleTiming } from '../../../workflows/mint/mint-lifecycle-contract';
import { scrape } from '../../support/cluster-probe';
import { createTestDatabase } from '../../support/test-db';
import { readTestEnv } from '../../support/test-env';
import { uniqueId } from '../../support/worker-harness';

/**
 * Scale-out of the worker: two real worker processes (`workers/main-worker.ts`) poll one task queue while many
 * lifecycles run with compressed timings. Each sticky cache holds only a few workflows, so most workflow tasks
 * replay history, often on the other process. Every (mint, age bucket) gets exactly one prediction, none is
 * lost, and each workflow's state names the row that was written.
 */
const TIMING: LifecycleTiming = {
  scores: [
    { bucket: 30, afterS: 2 },
    { bucket: 60, afterS: 4 },
  ],
  // Generous: on a loaded test machine a late score would be skipped, which is a different test.
  maxLatenessS: 300,
  resolveAfterS: 8,
  checkpointsS: [1],
  checkpointRetry: { initialIntervalS: 0.1, maximumAttempts: 2 },
};

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let client: Client;
const workers: ReturnType<typeof startDaemon>[] = [];
const metricsPorts: number[] = [];

beforeAll(async () => {
  t = await createTestDatabase();
  client = new Client({ connection: await Connection.connect({ address: readTestEnv().temporalAddress }) });
});
afterAll(async () => {
  await Promise.all(workers.map((w) => w.kill()));
  await client.connection.close();
  await t.drop();
});

describe('two worker processes on one task queue', () => {
  it('predict each (mint, age bucket) exactly once across many lifecycles, and lose none', async () => {
    const taskQueue = uniqueId('two-workers');
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      metricsPorts.push(port);
      workers.push(
        startDaemon('workers/main-worker.ts', {
          DATABASE_URL: t.url,
          TEMPORAL_ADDRESS: readTestEnv().temporalAddress,
          TEMPORAL_TASK_QUEUE: taskQueue,
          HEARTBEAT_INTERVAL_S: '1',
          WORKER_METRICS_PORT: String(port),
          WORKER_MAX_CACHED_WORKFLOWS: '10',
          PRICE_SOURCE_URL: 'http://127.0.0.1:9/unreachable',
          // No corpus here: the empty corpus's prior is logged as the score (the warming rule has its own tests).
          MODEL_MIN_SERVING_CORPUS: '0',
        }),
      );
    }
    await waitFor(
      'both workers polling',
      async () =>
        (
          await Promise.all(
            metricsPorts.map((p) =>
              fetch(`http://127.0.0.1:${p}/metrics`).then(
                (r) => r.ok,
                () => false,
              ),
            ),
          )
        ).every(Boolean),
      120_000,
      () => workers.map((w) => (w.child.exitCode !== null ? `a worker exited: ${w.output().slice(-2000)}` : undefined)).find(Boolean),
    );

    const pipeline = createIngestPipeline({
      store: createLaunchEventStore(t.db),
      starter: createMintLifecycleStarter(client, taskQueue, TIMING),
      log: createLogger('silent', 'two-workers-test'),
      now: () => new Date(),
    });
    // Launches over three seconds at 40 a second, started as ingestion starts them.
    const now = Date.now();
    const events = [...createMarketSimulator({ seed: 1313, launchesPerSecond: 40, graduationShare: 0 }).events(now - 3000, now)];
    await pipeline.handle(events);
    const mints = events.filter((e) => e.kind === 'create' && !e.mayhem).map((e) => e.mint);
    expect(mints.length).toBeGreaterThan(60);

    const states = await Promise.all(mints.map((m) => client.workflow.getHandle(mintWorkflowId(m)).result() as Promise<LifecycleState>));
    const rows: { id: number; mint: string; age_bucket: number }[] = await t.db('predictions').whereIn('mint', mints).select('id', 'mint', 'age_bucket');
    const rowId = new Map(rows.map((r) => [`${r.mint}:${r.age_bucket}`, Number(r.id)]));
    // Exactly one row per (mint, bucket), none missing.
    expect(rows.length).toBe(mints.length * 2);
    expect(rowId.size).toBe(mints.length * 2);
    // Every lifecycle scored both buckets and holds the id of the one row, whichever process wrote it.
    const disagreements = mints.flatMap((m, i) =>
      states[i]!.scores.filter((s) => s.status !== 'scored' || s.predictionId !== rowId.get(`${m}:${s.bucket}`)).map((s) => ({ m, ...s })),
    );
    expect(disagreements).toEqual([]);

    // Both processes took part: each scored some of the lifecycles.
    const scoredBy = await Promise.all(
      metricsPorts.map(async (port) => {
        const samples = await scrape(`http://127.0.0.1:${port}/metrics`);
        return (
          samples.find((s) => s.name === 'temporal_activity_outcomes_total' && s.labels.activity_type === 'scoreMint' && s.labels.outcome === 'completed')
            ?.value ?? 0
        );
      }),
    );
    expect(scoredBy.every((n) => n > 0)).toBe(true);
    expect(scoredBy[0]! + scoredBy[1]!).toBeGreaterThanOrEqual(mints.length * 2);
  }, 240_000);
});
