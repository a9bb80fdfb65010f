import type { WorkflowContract } from '../workflow-contract';

export const WEBHOOK_DELIVERY_WORKFLOW = 'deliverWebhook';

/** One delivery per (event, subscription): a duplicate event or a rerun fan-out never delivers twice. */
export const webhookDeliveryWorkflowId = (outboxId: number, webhookId: number) => `webhook-delivery:${outboxId}:${webhookId}`;

/** `scheduleS`: seconds before each attempt (the first 0), from the config when the fan-out started it. */
export type WebhookDeliveryInput = { outboxId: number; webhookId: number; scheduleS: number[] };
export type WebhookDeliveryOutcome = 'succeeded' | 'gone' | 'gave_up' | 'inactive';
export type WebhookDeliveryResult = { outcome: WebhookDeliveryOutcome; attempts: number };

export const WEBHOOK_DELIVERY_CONTRACT: WorkflowContract = {
  workflowType: WEBHOOK_DELIVERY_WORKFLOW,
  // The default schedule spans about 3 days 4 h; past 4 days a delivery is stuck.
  deadlineS: 4 * 86_400,
};
