import { defineQuery } from '@temporalio/workflow';
import type { WorkflowContract } from '../workflow-contract';

/** Contract of the per-intent payment workflow: the only billing workflow module other code imports at runtime. */
export const PAYMENT_INTENT_WORKFLOW = 'paymentIntent';
export const paymentWorkflowId = (memo: string) => `payment:${memo}`;

/** Timings are inputs so tests run a whole intent, reminder and plan end in seconds. */
export type PaymentTiming = {
  /** How often the treasury is polled while the intent is open. */
  pollIntervalS: number;
  /** How long before the plan ends the renewal reminder goes out. */
  reminderLeadS: number;
  /** Polls per workflow run before it continues as new, keeping each run's history small. */
  maxPollsPerRun: number;
  /** How long a refusing mail server is retried before the reminder is recorded as failed. */
  reminderRetry: { initialIntervalS: number; maximumAttempts: number };
};
export const DEFAULT_PAYMENT_TIMING: PaymentTiming = {
  pollIntervalS: 5,
  reminderLeadS: 3 * 86_400,
  maxPollsPerRun: 500,
  reminderRetry: { initialIntervalS: 30, maximumAttempts: 6 },
};

/** Amounts in the intent's unit: lamports, or raw units of the holder mint for a token intent. */
export type PaymentCheck = {
  status: 'pending' | 'underpaid' | 'paid' | 'expired' | 'activated';
  receivedUnits: string;
  countedUnits: string;
  paidSignature: string | null;
};
export type PlanEnd = 'reverted' | 'renewed' | 'already_free';

export type PaymentIntentInput = { memo: string; expiresAt: string; timing: PaymentTiming };

export type PaymentIntentState = {
  phase: 'awaiting_payment' | 'expired' | 'underpaid' | 'active' | 'ended';
  polls: number;
  failedPolls: number;
  lastError: string | null;
  lastCheck: PaymentCheck | null;
  activation: { keyId: number; planExpiresAt: string; activatedAt: string; firstTime: boolean } | null;
  reminder: { renewed: boolean; channel: string | null; status: string | null } | null;
  end: PlanEnd | null;
};
export const paymentStateQuery = defineQuery<PaymentIntentState>('state');

/** Started by the API and the outbox sweep (payment-intent-starter.ts); open until the plan ends, so no deadline. */
export const PAYMENT_INTENT_CONTRACT: WorkflowContract = { workflowType: PAYMENT_INTENT_WORKFLOW };
