import { mintActivities } from '../../activities/mint';
import { walletsActivities } from '../../activities/wallets';
import { createLaunchEventStore } from '../../db/mint/launch-event-store';
import type { CreateEvent, LaunchEvent } from '../../domain/launch/launch-events';
import { createMarketSimulator } from '../../ingest/simulator/market-simulator';
import { areaContext } from './area-context';
import type { KnexDb } from '../../db/knex-handle';

const MIN = 60_000;

/**
 * A resolved history on the simulated market, built with the real activities in the lifecycle's order: every
 * non-mayhem mint older than its horizon is resolved (`resolveMint`) and then applied to its buyers' wallet records
 * (`applyWalletContributions`), as a mint's workflow does at its horizon (here `horizonMin` instead of 24 h). Mints
 * younger than that stay live.
 */
export async function buildWalletHistory(
  db: KnexDb,
  o: { now: Date; seed: number; minutes: number; horizonMin: number; launchesPerSecond?: number; graduationShare?: number; env?: Record<string, string> },
) {
  const sim = createMarketSimulator({ seed: o.seed, launchesPerSecond: o.launchesPerSecond ?? 0.5, graduationShare: o.graduationShare ?? 0.08 });
  const events: LaunchEvent[] = [...sim.events(o.now.getTime() - o.minutes * MIN, o.now.getTime())];
  const store = createLaunchEventStore(db);
  for (let i = 0; i < events.length; i += 5000) await store.writeBatch(events.slice(i, i + 5000));
  const ctx = areaContext(db, { env: o.env, now: () => o.now });
  const mint = mintActivities.create(ctx, { dexPriceSourceName: 'test' });
  const wallets = walletsActivities.create(ctx);
  const creates = events.filter((e): e is CreateEvent => e.kind === 'create' && !e.mayhem);
  const horizonOf = (c: CreateEvent) => new Date(c.at.getTime() + o.horizonMin * MIN);
  const resolved = creates.filter((c) => horizonOf(c).getTime() < o.now.getTime());
  const resolve = async (c: CreateEvent) => {
    const horizonAt = horizonOf(c).toISOString();
    await mint.resolveMint({ mint: c.mint, horizonAt });
    await wallets.applyWalletContributions({ mint: c.mint, horizonAt });
  };
  for (let i = 0; i < resolved.length; i += 8) await Promise.all(resolved.slice(i, i + 8).map(resolve));
  return { events, creates, resolved, horizonOf, mint, wallets, ctx };
}
