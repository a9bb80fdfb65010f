import { ActivityFailure, proxyActivities } from '@temporalio/workflow';
import type { PerpsJudgingActivities } from '../../activities/perps/perps-judging-activities';
import { sleepUntil } from '../workflow-time';
import type { HorizonOutcome, PerpsEntryJudgingInput } from './perps-entry-judging-contract';

// Until the markets poll has sampled a price at or after the due time the activity fails and is retried; a poller
// down for hours leaves the horizon unjudged rather than judged at a price from another time.
const acts = proxyActivities<PerpsJudgingActivities>({
  startToCloseTimeout: '30 seconds',
  scheduleToCloseTimeout: '6 hours',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/** Judges one smart entry at each horizon after its detection, on durable timers. */
export async function perpsEntryJudging(input: PerpsEntryJudgingInput): Promise<HorizonOutcome[]> {
  const detectedAt = Date.parse(input.detectedAt);
  const out: HorizonOutcome[] = [];
  for (const h of [...input.horizons].sort((a, b) => a.afterMs - b.afterMs)) {
    const dueAt = detectedAt + h.afterMs;
    await sleepUntil(dueAt);
    try {
      out.push(await acts.judgePerpsEntryAt({ entryId: input.entryId, horizon: h.horizon, dueAt: new Date(dueAt).toISOString() }));
    } catch (e) {
      if (!(e instanceof ActivityFailure)) throw e;
      out.push({ horizon: h.horizon, status: 'no_price', error: e.cause?.message ?? e.message });
    }
  }
  return out;
}
