import { createLiveProjector } from '../../activities/mint/live-projector';
import { createPriceStore } from '../../db/market/price-store';
import { createLaunchEventStore } from '../../db/mint/launch-event-store';
import { createLiveStore } from '../../db/mint/live-store';
import { WSOL_MINT } from '../../domain/market/native-coin';
import { createMarketSimulator } from '../../ingest/simulator/market-simulator';
import type { Knex } from '../../platform/db';

/**
 * What a running system has for fuzzing and benchmarks: a cached SOL price, ten simulated minutes of market
 * written as ingestion writes them, and one live snapshot built by the real projector.
 */
export async function seedSimulatedMarket(db: Knex, now: number, seed: number): Promise<void> {
  await createPriceStore(db).recordQuote({ symbol: 'SOL', mint: WSOL_MINT, usd: 81.63, source: 'jupiter-price-v3', fetchedAt: new Date(now) });
  await createLaunchEventStore(db).writeBatch([...createMarketSimulator({ seed, launchesPerSecond: 0.3 }).events(now - 600_000, now)]);
  const projector = createLiveProjector({ liveStore: createLiveStore(db), priceStore: createPriceStore(db), liveWindowS: 300, liveMaxEntries: 500, refreshIntervalS: 2, now: () => new Date(now) });
  await projector.refreshLiveSnapshot();
}
