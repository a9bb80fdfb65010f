import { defineIngestArea } from '../ingest-area';
import { startPerpsStream } from '../perps-stream/run-perps-stream';

/** The perps area in ingest: the observatory's trades stream (discovery of wallets worth watching) shares the daemon's lifetime. */
export const perpsIngest = defineIngestArea({
  name: 'perps',
  parts: ({ cfg, db, log }) => ({
    start: () => {
      const perps = startPerpsStream({ cfg, db, log });
      return () => perps.stop();
    },
  }),
});
