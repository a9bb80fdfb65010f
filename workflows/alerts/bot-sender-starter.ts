import type { Client } from '@temporalio/client';
import { startOrJoin } from '../start-or-join-starter';
import { BOT_SENDER_WORKFLOW, BOT_SENDER_WORKFLOW_ID, type BotSenderInput } from './bot-sender-contract';

/** Starts the one bot sender, or leaves the running one alone; every worker start may call it. */
export async function ensureBotSender(client: Client, taskQueue: string, o: { workflowId?: string; drainMs?: number } = {}): Promise<void> {
  const input: BotSenderInput = { drainMs: o.drainMs ?? 20_000, iterationsPerRun: 500 };
  await startOrJoin(client, BOT_SENDER_WORKFLOW, { taskQueue, workflowId: o.workflowId ?? BOT_SENDER_WORKFLOW_ID, input });
}
