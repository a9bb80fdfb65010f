import { patched, proxyActivities, proxyLocalActivities, sleep } from '@temporalio/workflow';
import type { WebhookDeliveryActivities } from '../../activities/webhooks/delivery-activities';
import type { WebhookDeliveryInput, WebhookDeliveryResult } from './webhook-delivery-contract';

// An attempt catches every receiver failure itself and reports it as an outcome; what throws is our own side (the
// database), retried here. A retried attempt may POST again: receivers deduplicate on `webhook-id`.
const retry = { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 20 } as const;
const acts = proxyActivities<WebhookDeliveryActivities>({ startToCloseTimeout: '1 minute', retry });
// The attempt as a local activity: it runs inside the workflow task that reaches it, so a delivery that succeeds at
// once is one workflow task and no activity task (half of Temporal's work per delivery). The POST has its own
// deadline (WEBHOOK_ATTEMPT_TIMEOUT_MS, at most 60 s); this one is only a backstop. The waits between attempts stay
// durable timers.
const local = proxyLocalActivities<WebhookDeliveryActivities>({ startToCloseTimeout: '90 seconds', retry });

/** Deliveries started before attempts were local activities replay with their scheduled activity tasks. */
const ATTEMPT_AS_LOCAL_ACTIVITY = 'webhook-attempt-local-activity';

/**
 * One event to one subscription: attempts on the retry schedule until a 2xx (succeeded), a 410 (gone: the
 * subscription is deactivated), a deactivated subscription (inactive) or the last attempt (gave_up: the owner is
 * told if the subscription has been failing for days, and it is deactivated).
 */
export async function deliverWebhook(input: WebhookDeliveryInput): Promise<WebhookDeliveryResult> {
  // Decided once, before the first command: a delivery keeps the path it started on for all its attempts.
  const attempt = patched(ATTEMPT_AS_LOCAL_ACTIVITY) ? local.attemptWebhookDelivery : acts.attemptWebhookDelivery;
  const n = input.scheduleS.length;
  for (let i = 0; i < n; i++) {
    const waitS = input.scheduleS[i]!;
    if (waitS > 0) await sleep(waitS * 1000);
    const outcome = await attempt({
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
