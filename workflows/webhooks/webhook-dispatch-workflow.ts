import { proxyActivities } from '@temporalio/workflow';
import type { WebhookDispatchActivities } from '../../activities/webhooks/dispatch-activities';
import type { WebhookDispatchResult } from './webhook-dispatch-contract';

// The fan-out heartbeats per page of subscriptions; a worker that dies mid-event is noticed within the heartbeat timeout.
const acts = proxyActivities<WebhookDispatchActivities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 5 },
});

/** Started by a Temporal Schedule every WEBHOOK_DISPATCH_EVERY_S. */
export async function dispatchWebhooks(): Promise<WebhookDispatchResult> {
  return acts.fanOutWebhookEvents();
}
