import { createCorpusStore } from '../../db/mint/corpus-store';
import { createIncrementalLiveModel } from '../../db/live/incremental-live-model';
import { createLiveReadModel } from '../../db/live/live-read-model';
import { createLiveStore } from '../../db/live/live-store';
import { buildCompositeEvaluator } from '../../models/signals/build-composite-evaluator';
import { ensureLiveProjector } from '../../workflows/live/live-projector-starter';
import { buildAlertEvaluator } from '../alerts/build-alert-evaluator';
import { defineActivityArea, type WorkerContext } from '../activity-area';
import { createLiveProjector } from './live-projector';

export const liveActivities = defineActivityArea({
  name: 'live',
  deps: ({ cfg, db, log, now }: Pick<WorkerContext, 'cfg' | 'db' | 'log' | 'now'>) => ({
    indexedCurves: async () => (await createCorpusStore(db).summary()).resolvedMints,
    readModel: createLiveReadModel(db, { smartMoney: { ttlMs: cfg.wallets.readCacheMs, criteria: cfg.wallets.smart } }),
    liveModel: createIncrementalLiveModel(db, { windowS: cfg.mint.liveWindowS }),
    liveStore: createLiveStore(db),
    liveMaxEntries: cfg.mint.liveMaxEntries,
    refreshIntervalS: Math.max(1, Math.round(cfg.mint.liveRefreshMs / 1000)),
    smartCriteria: cfg.wallets.smart,
    compositeEvaluator: buildCompositeEvaluator({ cfg, db, log }),
    alertEvaluator: buildAlertEvaluator({ cfg, db }),
    now,
  }),
  activities: (d) => createLiveProjector(d),
  start: async (_d, { cfg, temporal }) => {
    await ensureLiveProjector(temporal, cfg.temporal.taskQueue, cfg.mint.liveRefreshMs);
    return () => undefined;
  },
});
