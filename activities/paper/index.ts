import { createJupiterPriceClient } from '../../clients/jupiter-price-client';
import { createLiveReadModel } from '../../db/live/live-read-model';
import { createMintReadStore } from '../../db/mint/mint-read-store';
import { createPaperPositionStore } from '../../db/paper/paper-position-store';
import { ensurePaperEntries } from '../../workflows/paper/paper-entries-starter';
import { createPaperPositionStarter } from '../../workflows/paper/paper-position-starter';
import { ensurePaperPricer } from '../../workflows/paper/paper-pricer-starter';
import { defineActivityArea, type WorkerContext } from '../activity-area';
import { createPaperActivities } from './paper-activities';

/** Paper trading: the entry loop, the pricer, and one workflow per position (workflows/paper/). */
export const paperActivities = defineActivityArea({
  name: 'paper',
  deps: ({ cfg, db, log, temporal, now, readPorts }: WorkerContext) => ({
    paperStore: createPaperPositionStore(db),
    mintReadStore: createMintReadStore(db),
    readModel: createLiveReadModel(db, readPorts.live()),
    dexPriceClient: createJupiterPriceClient(cfg.price.sourceUrl),
    positionStarter: createPaperPositionStarter(temporal, cfg.temporal.taskQueue),
    paperConfig: cfg.paper.config,
    entryMaxDelayS: cfg.paper.entryMaxDelayS,
    tapeMaxLagS: cfg.paper.tapeMaxLagS,
    log,
    now,
  }),
  activities: (d) => createPaperActivities(d),
  start: async (_d, { cfg, temporal }) => {
    await ensurePaperEntries(temporal, cfg.temporal.taskQueue, cfg.paper.entryPollMs);
    await ensurePaperPricer(temporal, cfg.temporal.taskQueue, cfg.paper.tickMs);
    return () => undefined;
  },
});
