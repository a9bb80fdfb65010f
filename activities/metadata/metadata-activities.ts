import type { MetadataClient } from '../../clients/metadata/metadata-http-client';
import type { MintMetadataStore } from '../../db/metadata/mint-metadata-store';
import { metadataRecord, type MetadataRecord, type RetryPolicy } from '../../domain/metadata/metadata-attempt';
import type { LaunchMetadataLook } from '../../workflows/metadata/launch-metadata-contract';
import { heartbeat } from '../activity-heartbeat';

export type MetadataDeps = {
  store: MintMetadataStore;
  client: MetadataClient;
  enabled: boolean;
  concurrency: number;
  retry: RetryPolicy;
  lookbackH: number;
  now: () => Date;
};

/** A look takes a few rounds of fetches, so one activity stays short (its worst case is 4 × the fetch timeout). */
const ROUNDS_PER_LOOK = 4;

export function createMetadataActivities(d: MetadataDeps) {
  return {
    /**
     * One look of the metadata fetcher: the mints due (new ones first, then retries that are due), each URI fetched
     * by the guarded client with `concurrency` in flight, every outcome stored. Scoring never waits for it: it runs
     * in its own workflow and its rows are read only by the enriched mint. Storing is idempotent (db store), so a
     * retried look changes nothing twice; the client's per-URI cache makes a retried look cheap.
     */
    async fetchDueLaunchMetadata(): Promise<LaunchMetadataLook> {
      if (!d.enabled) return { fetched: 0, settled: 0 };
      const now = d.now();
      const due = await d.store.due(d.concurrency * ROUNDS_PER_LOOK, new Date(now.getTime() - d.lookbackH * 3_600_000), now);
      const records: MetadataRecord[] = [];
      let next = 0;
      // Each outcome is stored as it comes, so a slow host holds back only its own mint, never the rest of the look.
      const worker = async () => {
        while (next < due.length) {
          const m = due[next++]!;
          const r = metadataRecord(m, await d.client.fetch(m.uri), m.attempts + 1, d.retry, d.now());
          await d.store.record([r]);
          records.push(r);
          heartbeat({ done: records.length, of: due.length });
        }
      };
      await Promise.all(Array.from({ length: Math.min(d.concurrency, due.length) }, worker));
      return { fetched: records.length, settled: records.filter((r) => r.final).length };
    },
  };
}
export type MetadataActivities = ReturnType<typeof createMetadataActivities>;
