import { createMetadataClient } from '../../clients/metadata/metadata-http-client';
import { createMintMetadataStore } from '../../db/metadata/mint-metadata-store';
import { ensureLaunchMetadataFetcher } from '../../workflows/metadata/launch-metadata-starter';
import { defineActivityArea, type WorkerContext } from '../activity-area';
import { createMetadataActivities } from './metadata-activities';

export const metadataActivities = defineActivityArea({
  name: 'metadata',
  deps: ({ cfg, db, now }: Pick<WorkerContext, 'cfg' | 'db' | 'now'>) => {
    const m = cfg.metadata;
    return {
      store: createMintMetadataStore(db),
      client: createMetadataClient({
        ipfsGateway: m.ipfsGateway,
        timeoutMs: m.timeoutMs,
        maxBytes: m.maxBytes,
        allowPrivateTargets: m.allowPrivateTargets,
        cacheEntries: m.cacheEntries,
      }),
      enabled: m.enabled,
      concurrency: m.concurrency,
      retry: m.retry,
      lookbackH: m.lookbackH,
      now,
    };
  },
  activities: createMetadataActivities,
  start: async (d, { cfg, temporal }) => {
    if (cfg.metadata.enabled) await ensureLaunchMetadataFetcher(temporal, cfg.temporal.taskQueue, cfg.metadata.pollMs);
    return () => d.client.close();
  },
});
