import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { createLaunchEventStore } from '../../../db/mint/launch-event-store';
import { eventKey, type LaunchEvent } from '../../../domain/launch/launch-events';
import { createIngestPipeline } from '../../../ingest/pipeline/ingest-pipeline';
import { createMintLifecycleStarter } from '../../../workflows/mint/mint-lifecycle-starter';
import { PumpEventDecoder } from '../../../clients/solana/pump/pump-event-decoder';
import { loadPumpIdl, PUMP_PROGRAM_ID } from '../../../clients/solana/pump/pump-idl';
import { createMarketSimulator } from '../../../ingest/simulator/market-simulator';
import { createLogger } from '../../../platform/logger';
import { waitFor, sleep } from '../../../scripts/lib/run';
import { mintWorkflowId, type LifecycleState, type LifecycleTiming } from '../../../workflows/mint/mint-lifecycle-contract';
import { startSolanaRpcServer, type CapturedTx, type SolanaRpcFake } from '../../fakes/solana-rpc-server';
import { startDaemon } from '../../../scripts/lib/daemon-process';
import { createTestDatabase } from '../../support/test-db';
import { readTestEnv, SHARED_DATA } from '../../support/test-env';
import { uniqueId } from '../../support/worker-harness';

/**
 * Crash recovery with the real daemons as OS processes, killed with SIGKILL mid-stream and started again:
 * nothing accepted is lost, nothing is stored or predicted twice.
 */
const IDL = path.join(SHARED_DATA, 'idl', 'pump.json');
const decoder = new PumpEventDecoder(loadPumpIdl(IDL));

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let client: Client;
/** Every daemon a test started is killed after it, whatever failed. */
const daemons: ReturnType<typeof startDaemon>[] = [];
const daemon = (entry: string, env: Record<string, string>) => {
  const d = startDaemon(entry, env);
  daemons.push(d);
  return d;
};
afterEach(async () => {
  await Promise.all(daemons.splice(0).map((d) => d.kill()));
});
beforeAll(async () => {
  t = await createTestDatabase();
  client = new Client({ connection: await Connection.connect({ address: readTestEnv().temporalAddress }) });
});
afterAll(async () => {
  await client.connection.close();
  await t.drop();
});

const baseEnv = (taskQueue: string) => ({
  DATABASE_URL: t.url,
  TEMPORAL_ADDRESS: readTestEnv().temporalAddress,
  TEMPORAL_TASK_QUEUE: taskQueue,
  HEARTBEAT_INTERVAL_S: '1',
  WORKER_METRICS_PORT: '0',
  // Nothing outside is reachable from a test; fail fast instead of waiting on timeouts.
  PRICE_SOURCE_URL: 'http://127.0.0.1:9/unreachable',
  // No corpus here: the empty corpus's prior is logged as the score (the warming rule has its own tests).
  MODEL_MIN_SERVING_CORPUS: '0',
  HYPERLIQUID_API_URL: 'http://127.0.0.1:9/unreachable',
  HYPERLIQUID_WS_URL: 'ws://127.0.0.1:9/unreachable',
  DRIFT_DATA_URL: 'http://127.0.0.1:9/unreachable',
});

const decoded = (txs: CapturedTx[]): LaunchEvent[] =>
  txs.flatMap((tx) => decoder.decodeTransaction({ ...tx, blockTime: null }, { source: 'solana-logs', receivedAt: new Date() }).events);

describe('ingest daemon killed mid-stream (Solana logsSubscribe feed)', () => {
  let fake: SolanaRpcFake;
  beforeAll(async () => {
    fake = await startSolanaRpcServer({ programId: PUMP_PROGRAM_ID });
  });
  afterAll(async () => {
    await fake.close();
  });

  it('resumes after the last durable transaction and stores every event exactly once', async () => {
    const env = { ...baseEnv(uniqueId('no-worker')), INGEST_FEEDS: 'solana-logs', SOLANA_WS_URL: fake.wsUrl, SOLANA_RPC_URL: fake.url, PUMP_IDL_PATH: IDL };
    const tradeKeysIn = async () => new Set((await t.db('trades').select('event_key')).map((r: { event_key: string }) => r.event_key));

    let ingest = daemon('ingest/main-ingest.ts', env);
    const published: CapturedTx[] = [];
    await waitFor('the first subscription', async () => fake.subscriptions() === 1, 30_000);
    published.push(...fake.publish(40));
    const firstKeys = decoded(published)
      .filter((e) => e.kind === 'trade')
      .map(eventKey);
    await waitFor('the first batch to be durable', async () => (await tradeKeysIn()).size === firstKeys.length, 15_000);

    // Killed while the next transactions are in flight, and more land on chain while it is down.
    published.push(...fake.publish(40));
    await ingest.kill();
    await waitFor('the socket to drop', async () => fake.subscriptions() === 0, 5000);
    published.push(...fake.publish(30));

    ingest = daemon('ingest/main-ingest.ts', env);
    await waitFor('the resubscription', async () => fake.subscriptions() === 1, 30_000);
    published.push(...fake.publish(30));

    const events = decoded(published);
    const expectedTrades = new Set(events.filter((e) => e.kind === 'trade').map(eventKey));
    const expectedMints = new Set(events.filter((e) => e.kind === 'create').map((e) => e.mint));
    expect(expectedTrades.size).toBeGreaterThan(firstKeys.length);
    await waitFor('every published trade to be durable', async () => (await tradeKeysIn()).size >= expectedTrades.size, 30_000);
    await ingest.kill();
    const stored = await t.db('trades').select('event_key');
    expect(stored.length).toBe(expectedTrades.size); // none twice
    expect(new Set(stored.map((r: { event_key: string }) => r.event_key))).toEqual(expectedTrades); // none lost, none invented
    const mints = await t.db('mints').select('mint');
    expect(new Set(mints.map((r: { mint: string }) => r.mint))).toEqual(expectedMints);
  }, 120_000);
});

describe('worker killed mid-stream', () => {
  /** Scores at 2 s and 4 s (buckets 30 and 60), resolution at 8 s; lateness allowance covers the outage. */
  const TIMING: LifecycleTiming = {
    scores: [
      { bucket: 30, afterS: 2 },
      { bucket: 60, afterS: 4 },
    ],
    maxLatenessS: 120,
    resolveAfterS: 8,
    checkpointsS: [1],
    checkpointRetry: { initialIntervalS: 0.1, maximumAttempts: 2 },
  };

  it('picks the lifecycles up again and predicts each (mint, age) exactly once', async () => {
    const mints: string[] = [];
    const taskQueue = uniqueId('crash-worker');
    const worker = daemon('workers/main-worker.ts', baseEnv(taskQueue));
    await waitFor('the worker heartbeat', async () => !!(await t.db('daemon_heartbeats').where({ name: 'worker' }).first()), 30_000);
    const pipeline = createIngestPipeline({
      store: createLaunchEventStore(t.db),
      starter: createMintLifecycleStarter(client, taskQueue, TIMING),
      log: createLogger('silent', 'crash-test'),
      now: () => new Date(),
    });
    const now = Date.now();
    const events = [...createMarketSimulator({ seed: 31, launchesPerSecond: 4, graduationShare: 0 }).events(now - 1500, now)];
    await pipeline.handle(events);
    mints.push(...events.filter((e) => e.kind === 'create' && !e.mayhem).map((e) => e.mint));
    expect(mints.length).toBeGreaterThan(2);

    // Killed once the first scores are being written, while the second ones are still ahead.
    await waitFor('the first predictions', async () => Number((await t.db('predictions').count('* as n'))[0]!.n) > 0, 30_000);
    await worker.kill();
    await sleep(3000);
    daemon('workers/main-worker.ts', baseEnv(taskQueue));
    const states = await Promise.all(mints.map((m) => client.workflow.getHandle(mintWorkflowId(m)).result() as Promise<LifecycleState>));
    for (const s of states)
      expect(s.scores.map((x) => [x.bucket, x.status])).toEqual([
        [30, 'scored'],
        [60, 'scored'],
      ]);
    const rows = await t.db('predictions').whereIn('mint', mints).select('mint', 'age_bucket');
    expect(rows.length).toBe(mints.length * 2);
    expect(new Set(rows.map((r: { mint: string; age_bucket: number }) => `${r.mint}:${r.age_bucket}`)).size).toBe(mints.length * 2);
  }, 150_000);
});
