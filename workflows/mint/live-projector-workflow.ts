import { continueAsNew, log, proxyActivities, sleep } from '@temporalio/workflow';
import type { LiveProjectorActivities } from '../../activities/mint/live-projector';
import type { LiveProjectorInput } from './live-projector-contract';

const acts = proxyActivities<LiveProjectorActivities>({
  startToCloseTimeout: '20 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '5 seconds', maximumAttempts: 3 },
});

/**
 * Refreshes the live list every `intervalMs`, forever. It continues as new after `iterationsPerRun` refreshes
 * so its history stays small (each refresh adds a handful of events).
 */
export async function liveProjector(input: LiveProjectorInput): Promise<void> {
  for (let i = 0; i < input.iterationsPerRun; i++) {
    try {
      await acts.refreshLiveSnapshot();
    } catch (err) {
      // The next refresh rebuilds from Postgres; one failed refresh only makes the list a little older.
      log.warn('live refresh failed', { error: String(err) });
    }
    await sleep(input.intervalMs);
  }
  await continueAsNew<typeof liveProjector>(input);
}
