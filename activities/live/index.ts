import { createCorpusStore } from '../../db/mint/corpus-store';
import { createRunnerNowStore } from '../../db/mint/runner-now-store';
import { createRunnerNowScorer } from '../../models/mint/runner-now-scorer';
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
  deps: ({ cfg, db, log, now, liveConsumers, readPorts }: Pick<WorkerContext, 'cfg' | 'db' | 'log' | 'now' | 'liveConsumers' | 'readPorts'>) => ({
    // Runner odds from each live mint's current price: a k-NN model per grid age, refitted in this worker's memory.
    runnerNow: {
      scorer: createRunnerNowScorer({
        store: createRunnerNowStore(db),
        refitEveryS: cfg.mint.modelRefitEveryS,
        corpusLimit: cfg.mint.corpusLimit,
        liveWindowS: cfg.live.windowS,
        log,
        now: () => now().getTime(),
      }),
      store: createRunnerNowStore(db),
    },
    indexedCurves: async () => (await createCorpusStore(db).summary()).resolvedMints,
    readModel: createLiveReadModel(db, readPorts.live()),
    liveModel: createIncrementalLiveModel(db, { windowS: cfg.live.windowS }),
    liveStore: createLiveStore(db),
    liveMaxEntries: cfg.live.maxEntries,
    refreshIntervalS: Math.max(1, Math.round(cfg.live.refreshMs / 1000)),
    consumers: liveConsumers,
    now,
  }),
  activities: (d) => createLiveProjector(d),
  start: async (d, { cfg, temporal }) => {
    // The lists on disk were built by the previous run: readers call them stale until this run's first refresh.
    await d.liveStore.markPreRestart();
    await ensureLiveProjector(temporal, cfg.temporal.taskQueue, cfg.live.refreshMs);
    // Each worker refits its own in-memory models on a timer: a Temporal Schedule would reach only one worker.
    return d.runnerNow.scorer.startRefitLoop();
  },
});
