import { createLiveStore, LIVE_DELAYED_SNAPSHOT, LIVE_SNAPSHOT } from '../../db/live/live-store';
import { FREE_LIVE_DELAY_S } from '../../domain/access/operation-tiers';
import type { ApiContext } from '../api-area';
import { createLiveSnapshotCache, type LiveSnapshotCache } from './live-snapshot-cache';

export type LiveSnapshots = { live: LiveSnapshotCache; delayed: LiveSnapshotCache };

const byContext = new WeakMap<ApiContext, LiveSnapshots>();

/**
 * This process's copies of the projector's snapshots. One per API process, shared by the areas that read them (the
 * live lists, and /api/health, which reports the projector's freshness from the same copy).
 */
export function liveSnapshots(ctx: ApiContext): LiveSnapshots {
  let s = byContext.get(ctx);
  if (!s) {
    const store = createLiveStore(ctx.db);
    s = {
      live: createLiveSnapshotCache(store, LIVE_SNAPSHOT, 500),
      delayed: createLiveSnapshotCache(store, LIVE_DELAYED_SNAPSHOT, 2000, { delayS: FREE_LIVE_DELAY_S }),
    };
    byContext.set(ctx, s);
  }
  return s;
}
