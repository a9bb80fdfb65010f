import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import type { Config } from '../../platform/config';
import { DEFAULT_PAYMENT_TIMING, PAYMENT_INTENT_WORKFLOW, paymentWorkflowId, type PaymentIntentInput, type PaymentTiming } from './payment-intent-contract';

/** Starts an intent's workflow; idempotent by workflow id, so the API and the outbox sweep may both call it. */
export type PaymentIntentStarter = { start(memo: string, expiresAt: Date): Promise<void> };

/** `timeoutMs` bounds one start (the API answers a payer; the outbox sweep covers a start that timed out). */
export function createPaymentIntentStarter(client: Client, taskQueue: string, timing: PaymentTiming, o: { timeoutMs?: number } = {}): PaymentIntentStarter {
  const timeoutMs = o.timeoutMs ?? 30_000;
  return {
    async start(memo, expiresAt) {
      const input: PaymentIntentInput = { memo, expiresAt: expiresAt.toISOString(), timing };
      try {
        const started = client.workflow.start(PAYMENT_INTENT_WORKFLOW, {
          taskQueue,
          workflowId: paymentWorkflowId(memo),
          args: [input],
          // An intent has one workflow, ever: a finished one is never started again.
          workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        });
        // The client's abort signal does not cut a connection attempt short; a timer does. A start that lands late
        // is harmless: the sweep's own start then finds it running.
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`workflow start took longer than ${timeoutMs} ms`)), timeoutMs);
        });
        started.catch(() => undefined);
        await Promise.race([started, timeout]).finally(() => clearTimeout(timer));
      } catch (e) {
        if (!(e instanceof WorkflowExecutionAlreadyStartedError)) throw e;
      }
    },
  };
}

export function paymentTiming(billing: Config['billing']): PaymentTiming {
  return { ...DEFAULT_PAYMENT_TIMING, pollIntervalS: billing.pollIntervalS, reminderLeadS: billing.reminderLeadS };
}
