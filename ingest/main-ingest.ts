import { createHistoryStore } from '../db/mint/history-store';
import { createLaunchEventStore } from '../db/mint/launch-event-store';
import { createStatsStore } from '../db/mint/stats-store';
import { createHeartbeatStore } from '../db/ops/heartbeat-store';
import { migrateToLatest } from '../db/migrate';
import { seedSimulatedSmartWallets } from '../db/wallets/simulated-wallet-seed';
import { loadConfig, requireSetting } from '../platform/config';
import { createDb } from '../platform/db';
import { startHeartbeat } from '../platform/heartbeat';
import { createLogger, throttledDbLog } from '../platform/logger';
import { runEntry, stopOnSignal } from '../platform/process-entry';
import { connectTemporalClient } from '../platform/temporal-connection';
import { DEFAULT_TIMING } from '../workflows/mint/mint-lifecycle-contract';
import { syntheticHistoryPlan } from '../domain/history/synthetic-history-plan';
import { buildFeeds } from './build-feeds';
import { simulatedSmartWallets } from './simulator/simulated-smart-wallets';
import { seedSyntheticHistory } from './history/seed-synthetic-history';
import { createIngestPipeline } from './pipeline/ingest-pipeline';
import { createMintLifecycleStarter } from '../workflows/mint/mint-lifecycle-starter';
import { createLiveProjectorWaker } from '../workflows/mint/live-projector-starter';
import { startPerpsStream } from './perps-stream/run-perps-stream';

/** Composition root of the ingest daemon: feeds → durable facts in Postgres → lifecycle workflows. */
async function main() {
  const cfg = loadConfig();
  const log = createLogger(cfg.logLevel, 'ingest');
  const db = createDb(requireSetting(cfg.databaseUrl, 'DATABASE_URL'), cfg.dbPoolMax, { log: throttledDbLog(log) });
  await migrateToLatest(db);
  if (cfg.ingest.feeds.includes('simulator') && cfg.ingest.simulator.seedSmartWallets) {
    const n = await seedSimulatedSmartWallets(db, simulatedSmartWallets(cfg.ingest.simulator.seed), new Date());
    log.info({ seeded: n }, 'simulator smart wallets in the wallet index');
  }
  const client = await connectTemporalClient(requireSetting(cfg.temporal.address, 'TEMPORAL_ADDRESS'), cfg.temporal.namespace);
  const store = createLaunchEventStore(db);
  const waker = createLiveProjectorWaker(client, {
    minSpacingMs: cfg.signals.wakeMinSpacingMs,
    onError: (err) => log.warn({ err }, 'waking the live projector failed; its refresh will evaluate'),
  });
  const pipeline = createIngestPipeline({
    store,
    starter: createMintLifecycleStarter(client, cfg.temporal.taskQueue, DEFAULT_TIMING),
    log,
    now: () => new Date(),
    tradesDurable: () => waker.wake(),
  });
  // Whatever an earlier run committed but did not hand to Temporal is re-driven first.
  await pipeline.sweep();
  // The embedded default starts with a few simulated days behind it, so its models are fitted from the first minute.
  const history = syntheticHistoryPlan({
    nodeEnv: cfg.env,
    demoMode: cfg.demoMode,
    feeds: cfg.ingest.feeds,
    launches: cfg.ingest.simulator.historyLaunches,
    seed: cfg.ingest.simulator.seed,
    launchesPerS: cfg.ingest.simulator.launchesPerS,
    graduationShare: cfg.ingest.simulator.graduationShare,
    horizonS: DEFAULT_TIMING.resolveAfterS,
    nowMs: Date.now(),
  });
  if (history) await seedSyntheticHistory(history, createHistoryStore(db), log);
  const resumeAfter = Object.fromEntries(await Promise.all(cfg.ingest.feeds.map(async (f) => [f, await store.resumeSignature(f)] as const)));
  const feeds = buildFeeds(cfg, log, resumeAfter);
  log.info({ resumeAfter }, 'feeds resume after');
  for (const f of feeds) f.start((events) => pipeline.handle(events));
  const stats = createStatsStore(db);
  const timer = setInterval(() => {
    void pipeline.sweep().catch((e) => log.warn({ err: e }, 'outbox sweep failed'));
    for (const f of feeds) void stats.recordFeedStats(f.name, f.stats(), new Date()).catch(() => undefined);
    log.info({ ...pipeline.counters }, 'ingest progress');
  }, 30_000);
  // The perps observatory's trades stream (discovery of wallets worth watching) shares this daemon's lifetime.
  const perps = startPerpsStream({ cfg, db, log });
  const stopBeat = startHeartbeat(createHeartbeatStore(db), 'ingest', cfg.heartbeatIntervalS, log);
  log.info({ feeds: feeds.map((f) => f.name), perpsStream: cfg.perps.wsUrl }, 'ingest started');

  stopOnSignal(async () => {
    clearInterval(timer);
    waker.stop();
    stopBeat();
    await Promise.all([...feeds.map((f) => f.stop()), perps.stop()]);
    await client.connection.close();
    await db.destroy();
    log.info('ingest stopped');
  });
}

runEntry(main);
