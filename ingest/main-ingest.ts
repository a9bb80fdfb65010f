import { migrateToLatest } from '../db/migrate';
import { loadConfig, requireSetting } from '../platform/config';
import { createDb } from '../platform/db';
import { asDb } from '../db/knex-handle';
import { createLogger, throttledDbLog } from '../platform/logger';
import { connectTemporalClient } from '../platform/temporal-connection';
import { buildFeeds } from './build-feeds';
import { buildIngestAreas } from './ingest-areas';
import { createIngestPipeline } from './pipeline/ingest-pipeline';
import { onStopSignal, runProcess } from '../platform/process-lifecycle';

/** Composition root of the ingest daemon: feeds → durable facts in Postgres → lifecycle workflows; the areas add the rest. */
async function main() {
  const cfg = loadConfig();
  const log = createLogger(cfg.logLevel, 'ingest');
  const db = asDb(createDb(requireSetting(cfg.databaseUrl, 'DATABASE_URL'), cfg.dbPoolMax, { log: throttledDbLog(log) }));
  await migrateToLatest(db);
  const client = await connectTemporalClient(requireSetting(cfg.temporal.address, 'TEMPORAL_ADDRESS'), cfg.temporal.namespace);
  const now = () => new Date();
  const areas = buildIngestAreas({ cfg, db, log, temporal: client, now });
  const { store, starter } = areas.facts;
  const pipeline = createIngestPipeline({ store, starter, log, now, tradesDurable: areas.onTradesDurable });
  // Whatever an earlier run committed but did not hand to Temporal is re-driven first.
  await pipeline.sweep();
  await areas.prepare();
  const resumeAfter = Object.fromEntries(await Promise.all(cfg.ingest.feeds.map(async (f) => [f, await store.resumeSignature(f)] as const)));
  const feeds = buildFeeds(cfg, log, resumeAfter);
  log.info({ resumeAfter }, 'feeds resume after');
  for (const f of feeds) f.start((events) => pipeline.handle(events));
  const timer = setInterval(() => {
    void pipeline.sweep().catch((e) => log.warn({ err: e }, 'outbox sweep failed'));
    areas.onProgress(feeds);
    log.info({ ...pipeline.counters }, 'ingest progress');
  }, 30_000);
  const stopAreas = areas.start();
  log.info({ feeds: feeds.map((f) => f.name), perpsStream: cfg.perps.wsUrl }, 'ingest started');

  onStopSignal(async () => {
    clearInterval(timer);
    await Promise.all([...feeds.map((f) => f.stop()), stopAreas()]);
    await client.connection.close();
    await db.destroy();
    log.info('ingest stopped');
  });
}

runProcess(main);
