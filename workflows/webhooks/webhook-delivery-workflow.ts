import { proxyActivities, sleep } from '@temporalio/workflow';
import type { WebhookDeliveryActivities } from '../../activities/webhooks/delivery-activities';
import type { WebhookDeliveryInput, WebhookDeliveryResult } from './webhook-delivery-contract';

// An attempt catches every receiver failure itself and reports it as an outcome; what throws is our own side (the
// database), retried here. A retried attempt may POST again: receivers deduplicate on `webhook-id`.
const acts = proxyActivities<WebhookDeliveryActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 20 },
});

/**
 * One event to one subscription: attempts on the retry schedule until a 2xx (succeeded), a 410 (gone: the
 * subscription is deactivated), a deactivated subscription (inactive) or the last attempt (gave_up: the owner is
 * told if the subscription has been failing for days, and it is deactivated).
 */
export async function deliverWebhook(input: WebhookDeliveryInput): Promise<WebhookDeliveryResult> {
  const n = input.scheduleS.length;
  for (let i = 0; i < n; i++) {
    const waitS = input.scheduleS[i]!;
    if (waitS > 0) await sleep(waitS * 1000);
    const outcome = await acts.attemptWebhookDelivery({
      outboxId: input.outboxId,
      webhookId: input.webhookId,
      attempt: i + 1,
      nextRetryInS: i + 1 < n ? input.scheduleS[i + 1]! : null,
    });
    if (outcome !== 'retry') return { outcome, attempts: i + 1 };
  }
  await acts.giveUpWebhookDelivery({ webhookId: input.webhookId });
  return { outcome: 'gave_up', attempts: n };
}
