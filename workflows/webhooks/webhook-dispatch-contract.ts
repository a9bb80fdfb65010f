import type { WorkflowContract } from '../workflow-contract';

export const WEBHOOK_DISPATCH_WORKFLOW = 'dispatchWebhooks';
export const WEBHOOK_DISPATCH_SCHEDULE_ID = 'schedule:webhook-dispatch';

export type WebhookDispatchResult = { events: number; deliveries: number; cursor: number };

/**
 * Fans new outbox events out to subscriptions. One activity pages the matching subscriptions and starts one delivery
 * workflow per (event, subscription), so 10,000 subscriptions are 10,000 workflows, not 10,000 activities in this
 * history. A run that dies half-way is redone by the next: starts are deduplicated by workflow id.
 * No longer scheduled: the webhook relay (webhook-relay-contract.ts) runs the same fan-out in one long-running
 * workflow. The type stays registered so runs an earlier version started still finish and replay.
 */
export const WEBHOOK_DISPATCH_CONTRACT: WorkflowContract = {
  workflowType: WEBHOOK_DISPATCH_WORKFLOW,
  deadlineS: 30 * 60,
};
