import { PAYMENT_INTENT_CONTRACT } from './payment-intent-contract';
import { PAYMENT_OUTBOX_CONTRACT } from './payment-outbox-contract';
import { BURN_RECORD_CONTRACT } from './burn-record-contract';
import type { WorkflowContract } from '../workflow-contract';

/** The billing area's workflow contracts (schedules and deadlines as data), for workflows/workflow-contracts.ts. */
export const BILLING_CONTRACTS: readonly WorkflowContract[] = [PAYMENT_INTENT_CONTRACT, PAYMENT_OUTBOX_CONTRACT, BURN_RECORD_CONTRACT];
