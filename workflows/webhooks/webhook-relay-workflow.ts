import { continueAsNew, proxyActivities } from '@temporalio/workflow';
import type { WebhookDispatchActivities } from '../../activities/webhooks/dispatch-activities';
import { pollUntilContinueAsNew } from '../polling-loop';
import type { WebhookRelayInput } from './webhook-relay-contract';

// As the scheduled dispatcher's: the fan-out heartbeats per page of subscriptions.
const acts = proxyActivities<WebhookDispatchActivities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 5 },
});

/**
 * Fans new outbox events out, forever (polling-loop.ts): the outbox and its cursor are in Postgres, so a failed
 * look loses nothing. It continues as new between runs.
 */
export async function webhookRelay(input: WebhookRelayInput): Promise<void> {
  await pollUntilContinueAsNew(input, 'webhook fan-out', async () => (await acts.fanOutWebhookEvents()).events);
  await continueAsNew<typeof webhookRelay>(input);
}
