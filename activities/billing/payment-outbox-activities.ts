import type { PaymentIntentStore } from '../../db/billing/payment-intent-store';
import type { PaymentIntentStarter } from '../../workflows/billing/payment-intent-starter';

export type PaymentOutboxDeps = {
  paymentIntentStore: PaymentIntentStore;
  paymentStarter: PaymentIntentStarter;
  /** The API starts each intent's workflow right after writing the row; rows younger than this are its to start. */
  outboxGraceMs: number;
  now: () => Date;
};

const BATCH = 200;

export function createPaymentOutboxActivities(d: PaymentOutboxDeps) {
  return {
    async startPendingPaymentWorkflows(): Promise<{ started: string[] }> {
      const now = d.now();
      const started: string[] = [];
      for (const intent of await d.paymentIntentStore.unstarted(new Date(now.getTime() - d.outboxGraceMs), BATCH)) {
        await d.paymentStarter.start(intent.memo, intent.expiresAt);
        await d.paymentIntentStore.markWorkflowStarted(intent.memo, d.now());
        started.push(intent.memo);
      }
      return { started };
    },
  };
}
