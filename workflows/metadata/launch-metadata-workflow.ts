import { continueAsNew, proxyActivities } from '@temporalio/workflow';
import type { MetadataActivities } from '../../activities/metadata/metadata-activities';
import { pollUntilContinueAsNew } from '../polling-loop';
import type { LaunchMetadataInput } from './launch-metadata-contract';

// A look is a few rounds of bounded fetches; it heartbeats after each fetch.
const acts = proxyActivities<MetadataActivities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 5 },
});

/** Fetches due launch metadata, forever (polling-loop.ts), continuing as new between runs. */
export async function launchMetadataFetcher(input: LaunchMetadataInput): Promise<void> {
  await pollUntilContinueAsNew(input, 'metadata look', async () => (await acts.fetchDueLaunchMetadata()).fetched);
  await continueAsNew<typeof launchMetadataFetcher>(input);
}
