import type { WorkflowContract } from '../workflow-contract';

export const BOT_SENDER_WORKFLOW = 'botSender';
/** One sender for the whole deployment: the workflow id is the lock, so each chat's queue has one sender, in order. */
export const BOT_SENDER_WORKFLOW_ID = 'bot-sender';
export type BotSenderInput = { drainMs: number; iterationsPerRun: number };

/** Started by every worker (bot-sender-starter.ts); runs for good, so no deadline. */
export const BOT_SENDER_CONTRACT: WorkflowContract = { workflowType: BOT_SENDER_WORKFLOW };
