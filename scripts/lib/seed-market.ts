import { accuracyActivities } from '../../activities/accuracy';
import { marketActivities } from '../../activities/market';
import { createLiveTick } from '../../activities';
import { createLiveConsumers } from '../../activities/live/live-consumers';
import { createPriceStore } from '../../db/market/price-store';
import { createLaunchEventStore } from '../../db/mint/launch-event-store';
import { WSOL_MINT } from '../../domain/market/native-coin';
import { createMarketSimulator } from '../../ingest/simulator/market-simulator';
import { loadConfig } from '../../platform/config';
import { createLogger } from '../../platform/logger';
import type { KnexDb } from '../../db/knex-handle';

/**
 * What a running system has for fuzzing and benchmarks: a cached SOL price, ten simulated minutes of market
 * written as ingestion writes them after a quiet day of history, one live snapshot built by the real projector,
 * the market temperature and the accuracy page computed by their real activities. Without them the documented
 * 503s ("not built yet") would be all a fuzzer sees.
 */
export async function seedSimulatedMarket(db: KnexDb, now: number, seed: number): Promise<void> {
  const events = createLaunchEventStore(db);
  await createPriceStore(db).recordQuote({ symbol: 'SOL', mint: WSOL_MINT, usd: 81.63, source: 'jupiter-price-v3', fetchedAt: new Date(now) });
  await events.writeBatch([...createMarketSimulator({ seed, launchesPerSecond: 0.3 }).events(now - 600_000, now)]);
  // A day of quiet history before that, so /api/v1/conditions has hours to rank the last one against.
  const history = [...createMarketSimulator({ seed: seed + 1000, launchesPerSecond: 0.001 }).events(now - 26 * 3_600_000, now - 600_000)];
  for (let i = 0; i < history.length; i += 2000) await events.writeBatch(history.slice(i, i + 2000));
  // The areas' own activities at the default settings, at `now`.
  const ctx = { cfg: loadConfig({}), db, log: createLogger('silent', 'seed'), now: () => new Date(now), liveConsumers: createLiveConsumers() };
  await marketActivities.create(ctx).refreshMarketConditions();
  await createLiveTick(ctx).refreshLiveSnapshot();
  await accuracyActivities.create(ctx).recomputeAccuracy();
}
