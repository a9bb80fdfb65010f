import { createHistoryStore } from '../../db/mint/history-store';
import { syntheticHistoryPlan } from '../../domain/history/synthetic-history-plan';
import { DEFAULT_TIMING } from '../../workflows/mint/mint-lifecycle-contract';
import { defineIngestArea } from '../ingest-area';
import { seedSyntheticHistory } from './seed-synthetic-history';

/** The history area in ingest: the embedded default starts with a few simulated days behind it, so its models are fitted from the first minute. */
export const historyIngest = defineIngestArea({
  name: 'history',
  parts: ({ cfg, db, log, now }) => ({
    prepare: async () => {
      const history = syntheticHistoryPlan({
        nodeEnv: cfg.env,
        demoMode: cfg.demoMode,
        feeds: cfg.ingest.feeds,
        launches: cfg.ingest.simulator.historyLaunches,
        seed: cfg.ingest.simulator.seed,
        launchesPerS: cfg.ingest.simulator.launchesPerS,
        graduationShare: cfg.ingest.simulator.graduationShare,
        horizonS: DEFAULT_TIMING.resolveAfterS,
        nowMs: now().getTime(),
      });
      if (history) await seedSyntheticHistory(history, createHistoryStore(db), log);
    },
  }),
});
