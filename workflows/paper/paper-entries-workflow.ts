import { continueAsNew, log, proxyActivities, sleep } from '@temporalio/workflow';
import type { PaperActivities } from '../../activities/paper/paper-activities';
import type { PaperEntriesInput } from './paper-entries-contract';

const acts = proxyActivities<PaperActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '5 seconds', maximumAttempts: 3 },
});

/**
 * Reads new 30 s / 60 s scores every `pollMs` and enters the strategies whose threshold they reach, then starts
 * the workflow of each new position (takePaperEntries). Every step is idempotent in Postgres, so a failed round is
 * simply done again by the next. Continues as new after `iterationsPerRun` rounds.
 */
export async function paperEntries(input: PaperEntriesInput): Promise<void> {
  for (let i = 0; i < input.iterationsPerRun; i++) {
    try {
      await acts.takePaperEntries();
    } catch (err) {
      log.warn('paper entry round failed', { error: String(err) });
    }
    await sleep(input.pollMs);
  }
  await continueAsNew<typeof paperEntries>(input);
}
