import { scheduledContract } from '../workflow-contract';

export const WEBHOOK_DISPATCH_WORKFLOW = 'dispatchWebhooks';
export const WEBHOOK_DISPATCH_SCHEDULE_ID = 'schedule:webhook-dispatch';

export type WebhookDispatchResult = { events: number; deliveries: number; cursor: number };

/**
 * Fans new outbox events out to subscriptions. One activity pages the matching subscriptions and starts one delivery
 * workflow per (event, subscription), so 10,000 subscriptions are 10,000 workflows, not 10,000 activities in this
 * history. A run that dies half-way is redone by the next: starts are deduplicated by workflow id.
 */
export const WEBHOOK_DISPATCH_CONTRACT = scheduledContract(WEBHOOK_DISPATCH_WORKFLOW, WEBHOOK_DISPATCH_SCHEDULE_ID, 'webhook-dispatch', {
  everyS: (cfg) => cfg.webhooks.dispatchEveryS,
  runTimeoutS: 900,
  deadlineS: 30 * 60,
});
