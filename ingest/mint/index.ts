import { createLaunchEventStore } from '../../db/mint/launch-event-store';
import { createStatsStore } from '../../db/mint/stats-store';
import { DEFAULT_TIMING } from '../../workflows/mint/mint-lifecycle-contract';
import { createMintLifecycleStarter } from '../../workflows/mint/mint-lifecycle-starter';
import { defineIngestArea } from '../ingest-area';

/** The mint area in ingest: the facts the feeds write, each new mint's lifecycle workflow, and the feeds' stats. */
export const mintIngest = defineIngestArea({
  name: 'mint',
  parts: ({ cfg, db, temporal, now }) => {
    const stats = createStatsStore(db);
    return {
      facts: { store: createLaunchEventStore(db), starter: createMintLifecycleStarter(temporal, cfg.temporal.taskQueue, DEFAULT_TIMING) },
      onProgress: (feeds) => {
        for (const f of feeds) void stats.recordFeedStats(f.name, f.stats(), now()).catch(() => undefined);
      },
    };
  },
});
