import { continueAsNew, log, proxyActivities, sleep, workflowInfo } from '@temporalio/workflow';
import type { MetadataActivities } from '../../activities/metadata/metadata-activities';
import type { LaunchMetadataInput } from './launch-metadata-contract';

// A look is a few rounds of bounded fetches; it heartbeats after each fetch.
const acts = proxyActivities<MetadataActivities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 5 },
});

/** A look is a handful of events: a run ends well before Temporal's limits and replays quickly. */
const MAX_HISTORY_EVENTS = 10_000;

/**
 * Fetches due launch metadata, forever: after a look that fetched something it looks again at once (a burst of
 * launches drains without waiting), otherwise it sleeps `everyMs`. A failed look (retries exhausted) is logged and
 * tried again after the sleep: what is due is in Postgres, so nothing is lost, only later. It continues as new
 * after `iterationsPerRun` looks, or sooner when its history grows long.
 */
export async function launchMetadataFetcher(input: LaunchMetadataInput): Promise<void> {
  for (let i = 0; i < input.iterationsPerRun; i++) {
    let fetched = 0;
    try {
      fetched = (await acts.fetchDueLaunchMetadata()).fetched;
    } catch (err) {
      log.warn('metadata look failed; the next look retries it', { error: String(err) });
    }
    if (fetched === 0) await sleep(input.everyMs);
    if (workflowInfo().historyLength > MAX_HISTORY_EVENTS || workflowInfo().continueAsNewSuggested) break;
  }
  await continueAsNew<typeof launchMetadataFetcher>(input);
}
