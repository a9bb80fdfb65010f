import { scheduledContract } from '../workflow-contract';

/** Contract of the payment outbox sweep, run by a Temporal Schedule. */
export const PAYMENT_OUTBOX_WORKFLOW = 'paymentOutboxSweep';
export const PAYMENT_OUTBOX_SCHEDULE_ID = 'schedule:payment-outbox';
/** Temporal appends the scheduled time, so each sweep has its own id: `payment-outbox-<time>`. */
export const PAYMENT_OUTBOX_WORKFLOW_ID_PREFIX = 'payment-outbox';

export const PAYMENT_OUTBOX_CONTRACT = scheduledContract(PAYMENT_OUTBOX_WORKFLOW, PAYMENT_OUTBOX_SCHEDULE_ID, PAYMENT_OUTBOX_WORKFLOW_ID_PREFIX, {
  everyS: (cfg) => cfg.billing.outboxSweepS,
  runTimeoutS: 120,
});
