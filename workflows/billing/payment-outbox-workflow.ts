import { proxyActivities } from '@temporalio/workflow';
import type { createPaymentOutboxActivities } from '../../activities/billing/payment-outbox-activities';

const { startPendingPaymentWorkflows } = proxyActivities<ReturnType<typeof createPaymentOutboxActivities>>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 5 },
});

/** Starts the workflows of intents whose start a crash lost between the row's commit and the start call. */
export async function paymentOutboxSweep(): Promise<{ started: string[] }> {
  return startPendingPaymentWorkflows();
}
