import { continueAsNew, log, proxyActivities, sleep } from '@temporalio/workflow';
import type { PaperActivities } from '../../activities/paper/paper-activities';
import type { PaperPricerInput } from './paper-pricer-contract';

const acts = proxyActivities<PaperActivities>({
  startToCloseTimeout: '60 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '5 seconds', maximumAttempts: 3 },
});

/**
 * Prices every open paper position every `tickMs` (pricePaperPositions: one round for all of them) and signals each
 * exit to its position's workflow. A failed round is done again by the next: the round reads everything from
 * Postgres, and an exit already signalled is signalled again harmlessly. Continues as new after `iterationsPerRun`.
 */
export async function paperPricer(input: PaperPricerInput): Promise<void> {
  for (let i = 0; i < input.iterationsPerRun; i++) {
    try {
      await acts.pricePaperPositions();
    } catch (err) {
      log.warn('paper pricing round failed', { error: String(err) });
    }
    await sleep(input.tickMs);
  }
  await continueAsNew<typeof paperPricer>(input);
}
