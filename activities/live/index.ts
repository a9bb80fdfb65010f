import { createCorpusStore } from '../../db/mint/corpus-store';
import { createIncrementalLiveModel } from '../../db/live/incremental-live-model';
import { createLiveReadModel } from '../../db/live/live-read-model';
import { createLiveStore } from '../../db/live/live-store';
import { ensureLiveProjector } from '../../workflows/live/live-projector-starter';
import { defineActivityArea, type WorkerContext } from '../activity-area';
import { createLiveProjector } from './live-projector';

/**
 * The live area: the projector that folds trades into the tracked mints, enriches them and writes the live lists,
 * then runs what other areas registered in the context's `liveConsumers` over the same states.
 */
export const liveActivities = defineActivityArea({
  name: 'live',
  deps: ({ cfg, db, now, liveConsumers }: Pick<WorkerContext, 'cfg' | 'db' | 'now' | 'liveConsumers'>) => ({
    indexedCurves: async () => (await createCorpusStore(db).summary()).resolvedMints,
    readModel: createLiveReadModel(db, { smartMoney: { ttlMs: cfg.wallets.readCacheMs, criteria: cfg.wallets.smart } }),
    liveModel: createIncrementalLiveModel(db, { windowS: cfg.live.windowS }),
    liveStore: createLiveStore(db),
    liveMaxEntries: cfg.live.maxEntries,
    refreshIntervalS: Math.max(1, Math.round(cfg.live.refreshMs / 1000)),
    consumers: liveConsumers,
    now,
  }),
  activities: (d) => createLiveProjector(d),
  start: async (_d, { cfg, temporal }) => {
    await ensureLiveProjector(temporal, cfg.temporal.taskQueue, cfg.live.refreshMs);
    return () => undefined;
  },
});
