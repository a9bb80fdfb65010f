import { ScheduleNotFoundError, type Client } from '@temporalio/client';
import { startOrJoin } from '../start-or-join-starter';
import { WEBHOOK_DISPATCH_SCHEDULE_ID } from './webhook-dispatch-contract';
import { WEBHOOK_RELAY_WORKFLOW, WEBHOOK_RELAY_WORKFLOW_ID, type WebhookRelayInput } from './webhook-relay-contract';

/**
 * Starts the one webhook relay, or leaves the running one alone; every worker start may call it. The Schedule of
 * the dispatcher it replaces is deleted where an earlier version created it, so the two never fan out side by side
 * (either would be safe, since starts are deduplicated by delivery id, but the old one would keep filling the list).
 */
export async function ensureWebhookRelay(client: Client, taskQueue: string, everyMs: number): Promise<void> {
  await client.schedule
    .getHandle(WEBHOOK_DISPATCH_SCHEDULE_ID)
    .delete()
    .catch((e: unknown) => {
      if (!(e instanceof ScheduleNotFoundError)) throw e;
    });
  const input: WebhookRelayInput = { everyMs, iterationsPerRun: 1000 };
  await startOrJoin(client, WEBHOOK_RELAY_WORKFLOW, { taskQueue, workflowId: WEBHOOK_RELAY_WORKFLOW_ID, input });
}
