import { createLiveTick } from '../../../activities';
import { areaContext } from '../../support/area-context';
import { Client, Connection } from '@temporalio/client';
import { createPriceStore } from '../../../db/market/price-store';
import { createLaunchEventStore } from '../../../db/mint/launch-event-store';
import type { LaunchEvent } from '../../../domain/launch/launch-events';
import { buildFeeds } from '../../../ingest/build-feeds';
import { createMarketSimulator } from '../../../ingest/simulator/market-simulator';
import { createIngestPipeline, type IngestPipeline } from '../../../ingest/pipeline/ingest-pipeline';
import { createMintLifecycleStarter } from '../../../workflows/mint/mint-lifecycle-starter';
import { loadConfig } from '../../../platform/config';
import { createLogger } from '../../../platform/logger';
import { waitFor } from '../../../scripts/lib/run';
import { DEFAULT_TIMING, mintWorkflowId } from '../../../workflows/mint/mint-lifecycle-contract';
import { startApi } from '../../support/api-harness';
import { createTestDatabase } from '../../support/test-db';
import { readTestEnv } from '../../support/test-env';
import { uniqueId } from '../../support/worker-harness';
import { typedApi } from '../../support/typed-api';

/**
 * The ingest daemon on its default feed, the simulator, stopped and started again on the same configuration
 * and database (what a crash, a supervisor's restart or a second `npm start` does): the restarted feed must
 * keep inserting new mints, and the ingest counters must report rows inserted, not events attempted.
 */
const log = createLogger('silent', 'simulator-restart-test');
// The daemon's configuration (seed 42, the simulator feed), with more launches a second so the test is short.
const cfg = loadConfig({ INGEST_FEEDS: 'simulator', SIMULATOR_SEED: '42', SIMULATOR_LAUNCHES_PER_S: '20', SIMULATOR_GRADUATION_SHARE: '0.05' });

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let api: Awaited<ReturnType<typeof startApi>>;
let client: Client;
// Lifecycles are started on a queue no worker polls: this test is about what ingest stores and commands.
const taskQueue = uniqueId('no-worker');

beforeAll(async () => {
  t = await createTestDatabase();
  api = await startApi(t.db);
  client = new Client({ connection: await Connection.connect({ address: readTestEnv().temporalAddress }) });
});
afterAll(async () => {
  const mints = (await t.db('mints').where('mayhem', false).pluck('mint')) as string[];
  await Promise.all(
    mints.map((m) =>
      client.workflow
        .getHandle(mintWorkflowId(m))
        .terminate('test over')
        .catch(() => undefined),
    ),
  );
  await client.connection.close();
  await api.close();
  await t.drop();
});

const newPipeline = () =>
  createIngestPipeline({
    store: createLaunchEventStore(t.db),
    starter: createMintLifecycleStarter(client, taskQueue, DEFAULT_TIMING),
    log,
    now: () => new Date(),
  });

const count = async (q: ReturnType<typeof t.db>) => Number(((await q.count('* as n')) as { n: string }[])[0]!.n);

/** Every fact ingest stores: a row per mint and trade, and each graduation time (complete, migrate) it learnt. */
async function storedFacts(): Promise<{ mints: Set<string>; facts: number }> {
  const mints = new Set((await t.db('mints').pluck('mint')) as string[]);
  const trades = await count(t.db('trades'));
  const completed = await count(t.db('mint_graduations').whereNotNull('completed_at'));
  const migrated = await count(t.db('mint_graduations').whereNotNull('migrated_at'));
  return { mints, facts: mints.size + trades + completed + migrated };
}

/** One ingest process's life: a fresh pipeline and the configured feeds, stopped once the feeds delivered `launches` creates. */
async function runIngest(launches: number): Promise<{ pipeline: IngestPipeline; batches: LaunchEvent[][]; created: string[] }> {
  const pipeline = newPipeline();
  await pipeline.sweep();
  const feeds = buildFeeds(cfg, log);
  const batches: LaunchEvent[][] = [];
  const created: string[] = [];
  for (const f of feeds)
    f.start(async (events) => {
      await pipeline.handle(events);
      batches.push(events);
      for (const e of events) if (e.kind === 'create') created.push(e.mint);
    });
  try {
    await waitFor(`${launches} launches`, async () => created.length >= launches, 30_000);
  } finally {
    await Promise.all(feeds.map((f) => f.stop()));
  }
  return { pipeline, batches, created };
}

describe('ingest restarted on the simulator', () => {
  it('inserts new mints after the restart and counts only the rows it inserted', async () => {
    // The first run lasts longer than the second: a restart that replayed the first run's market would spend
    // the whole second run re-sending mints the database already holds.
    const first = await runIngest(30);
    const afterFirst = await storedFacts();
    expect(afterFirst.mints.size).toBeGreaterThanOrEqual(30);
    expect(first.pipeline.counters.written).toBe(afterFirst.facts);

    // Restarted: a new process on the same configuration and database.
    const second = await runIngest(10);
    const afterSecond = await storedFacts();
    const newMints = [...afterSecond.mints].filter((m) => !afterFirst.mints.has(m));
    expect(newMints.sort()).toEqual([...new Set(second.created)].sort());
    expect(newMints.length).toBeGreaterThanOrEqual(10);
    expect(second.pipeline.counters.written).toBe(afterSecond.facts - afterFirst.facts);

    // Each new non-mayhem mint got its lifecycle.
    const scored = (await t.db('mints').whereIn('mint', newMints).where('mayhem', false).pluck('mint')) as string[];
    expect(second.pipeline.counters.mintsStarted).toBe(scored.length);
    const described = await client.workflow.getHandle(mintWorkflowId(scored[0]!)).describe();
    expect(described.status.name).toBe('RUNNING');

    // A batch already stored, delivered again to a fresh process (no memory of its keys): nothing is written,
    // and the counter says so. The same batch again in that process is dropped before the database.
    const replay = newPipeline();
    const again = second.batches.flat();
    await replay.handle(again);
    expect(replay.counters.written).toBe(0);
    expect(replay.counters).toMatchObject({ received: again.length, alreadyStored: again.length, duplicatesSkipped: 0, mintsStarted: 0 });
    await replay.handle(again);
    expect(replay.counters).toMatchObject({ written: 0, alreadyStored: again.length, duplicatesSkipped: again.length });
    expect((await storedFacts()).facts).toBe(afterSecond.facts);
    // Every event received is accounted for once.
    for (const c of [first.pipeline.counters, second.pipeline.counters, replay.counters])
      expect(c.received).toBe(c.written + c.alreadyStored + c.duplicatesSkipped);

    // And the live list shows the restarted market.
    const now = new Date();
    await createPriceStore(t.db).recordQuote({
      symbol: 'SOL',
      mint: 'So11111111111111111111111111111111111111112',
      usd: 80,
      source: 'jupiter-price-v3',
      fetchedAt: now,
    });
    await createLiveTick(areaContext(t.db, { now: () => now })).refreshLiveSnapshot();
    const live = await typedApi(api.url).GET('/api/live');
    expect(live.response.status).toBe(200);
    const listed = live.data!.mints.map((m) => m.mint);
    expect(listed.filter((m) => newMints.includes(m)).length).toBeGreaterThan(0);
  });

  it('counts the complete and migrate events of a graduation once each, however often they arrive', async () => {
    const start = Date.now() - 3_600_000;
    const market = [
      ...createMarketSimulator({ seed: 3, run: 1, startMs: start, launchesPerSecond: 0.02, graduationShare: 1, mayhemShare: 0 }).events(
        start,
        start + 30 * 60_000,
      ),
    ];
    const graduated = market.find((e) => e.kind === 'migrate')!.mint;
    const events = market.filter((e) => e.mint === graduated);
    const migrate = events.filter((e) => e.kind === 'migrate');
    const rest = events.filter((e) => e.kind !== 'migrate');
    expect(rest.filter((e) => e.kind === 'complete')).toHaveLength(1);

    const store = createLaunchEventStore(t.db);
    expect(await store.writeBatch(rest)).toMatchObject({ written: rest.length, newGraduations: [{ mint: graduated }] });
    // The migration fills in the row the completion created: one fact more, not a new graduation.
    expect(await store.writeBatch(migrate)).toMatchObject({ written: 1, newGraduations: [] });
    expect(await store.writeBatch(events)).toMatchObject({ written: 0, newMints: [], newGraduations: [], tradesInserted: 0 });
  });
});
