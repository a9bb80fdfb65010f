import type { Client } from '@temporalio/client';
import { createLaunchEventStore } from '../../db/mint/launch-event-store';
import { createIngestPipeline } from '../../ingest/pipeline/ingest-pipeline';
import { createLogger } from '../../platform/logger';
import type { LifecycleTiming } from '../../workflows/mint/mint-lifecycle-contract';
import { createMintLifecycleStarter } from '../../workflows/mint/mint-lifecycle-starter';
import type { KnexDb } from '../../db/knex-handle';

/** The ingest pipeline as the ingest daemon builds it, starting lifecycles on a test worker's task queue. */
export function testIngestPipeline(db: KnexDb, w: { client: Client; taskQueue: string }, timing: LifecycleTiming) {
  return createIngestPipeline({
    store: createLaunchEventStore(db),
    starter: createMintLifecycleStarter(w.client, w.taskQueue, timing),
    log: createLogger('silent', 'ingest-test'),
    now: () => new Date(),
  });
}
