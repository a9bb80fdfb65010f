import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import { WEBHOOK_DELIVERY_WORKFLOW, webhookDeliveryWorkflowId, type WebhookDeliveryInput } from './webhook-delivery-contract';

export type WebhookDeliveryStarter = { start(input: WebhookDeliveryInput): Promise<'started' | 'already'> };

/** Starts one delivery; idempotent by workflow id, and a finished delivery is never started again. */
export function createWebhookDeliveryStarter(client: Client, taskQueue: string): WebhookDeliveryStarter {
  return {
    async start(input) {
      try {
        await client.workflow.start(WEBHOOK_DELIVERY_WORKFLOW, {
          taskQueue,
          workflowId: webhookDeliveryWorkflowId(input.outboxId, input.webhookId),
          args: [input],
          workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        });
        return 'started';
      } catch (e) {
        if (e instanceof WorkflowExecutionAlreadyStartedError) return 'already';
        throw e;
      }
    },
  };
}
