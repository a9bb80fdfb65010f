import { continueAsNew, log, proxyActivities, sleep, workflowInfo } from '@temporalio/workflow';
import type { WebhookDispatchActivities } from '../../activities/webhooks/dispatch-activities';
import type { WebhookRelayInput } from './webhook-relay-contract';

// As the scheduled dispatcher's: the fan-out heartbeats per page of subscriptions.
const acts = proxyActivities<WebhookDispatchActivities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 5 },
});

/** A look at the outbox is about ten events: a run ends well before Temporal's limits and replays quickly. */
const MAX_HISTORY_EVENTS = 10_000;

/**
 * Fans new outbox events out, forever: after a look that found events it looks again at once (a burst drains
 * without waiting), otherwise it sleeps `everyMs`. A failed look (retries exhausted) is logged and retried after the
 * sleep: the outbox and its cursor are in Postgres, so nothing is lost, only later. It continues as new after
 * `iterationsPerRun` looks, or sooner when its history grows long.
 */
export async function webhookRelay(input: WebhookRelayInput): Promise<void> {
  for (let i = 0; i < input.iterationsPerRun; i++) {
    let found = 0;
    try {
      found = (await acts.fanOutWebhookEvents()).events;
    } catch (err) {
      log.warn('webhook fan-out failed; the next look retries it', { error: String(err) });
    }
    if (found === 0) await sleep(input.everyMs);
    if (workflowInfo().historyLength > MAX_HISTORY_EVENTS || workflowInfo().continueAsNewSuggested) break;
  }
  await continueAsNew<typeof webhookRelay>(input);
}
