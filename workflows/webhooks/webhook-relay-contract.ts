import type { PollingInput } from '../polling-loop';
import type { WorkflowContract } from '../workflow-contract';

export const WEBHOOK_RELAY_WORKFLOW = 'webhookRelay';
/** One relay for the whole deployment: the workflow id is the lock. */
export const WEBHOOK_RELAY_WORKFLOW_ID = 'webhook-relay';

/** `everyMs`: how long an idle relay waits before it looks at the outbox again; a run continues as new after `iterationsPerRun` looks. */
export type WebhookRelayInput = PollingInput;

/**
 * The long-running successor of the scheduled dispatcher: one workflow that fans new outbox events out to
 * subscriptions in a loop (the same idempotent fan-out activity, each delivery its own durable workflow), instead of
 * a Schedule starting a short workflow every two seconds, whose runs filled the Temporal UI's workflow list and cost
 * the server a workflow start each. Started by every worker (webhook-relay-starter.ts); runs for good, so no deadline.
 */
export const WEBHOOK_RELAY_CONTRACT: WorkflowContract = { workflowType: WEBHOOK_RELAY_WORKFLOW };
