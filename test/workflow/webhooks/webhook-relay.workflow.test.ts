import { ScheduleNotFoundError } from '@temporalio/client';
import { WEBHOOK_DISPATCH_SCHEDULE_ID, WEBHOOK_DISPATCH_WORKFLOW } from '../../../workflows/webhooks/webhook-dispatch-contract';
import { WEBHOOK_RELAY_WORKFLOW, WEBHOOK_RELAY_WORKFLOW_ID, type WebhookRelayInput } from '../../../workflows/webhooks/webhook-relay-contract';
import { ensureWebhookRelay } from '../../../workflows/webhooks/webhook-relay-starter';
import { issueTestKey } from '../../support/access-keys';
import { addSubscription, insertAlertFire } from '../../support/webhook-fixtures';
import { useWebhookWorld } from '../../support/webhook-world';
import { uniqueId } from '../../support/worker-harness';

/**
 * The webhook relay on the real Temporal server: one long-running workflow fans outbox events out as they come
 * (each delivery its own durable workflow), continues as new instead of growing, and replaces the Schedule that
 * started a dispatcher workflow every two seconds, so the workflow list holds one relay, not a run per tick.
 */
const world = useWebhookWorld();

const until = async (what: string, ok: () => Promise<boolean>, ms = 30_000) => {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 200))) if (await ok()) return;
  throw new Error(`timed out waiting for ${what}`);
};

it('delivers events written while it runs, and continues as new as one workflow id', async () => {
  const { db, w, rx } = world;
  const key = await issueTestKey(db, 'pro');
  await addSubscription(db, { keyId: key.id, url: rx.url('/relay'), events: '*' });
  const workflowId = uniqueId('webhook-relay');
  const input: WebhookRelayInput = { everyMs: 200, iterationsPerRun: 3 };
  const handle = await w.client.workflow.start(WEBHOOK_RELAY_WORKFLOW, { taskQueue: w.taskQueue, workflowId, args: [input] });
  try {
    const fire = await insertAlertFire(db, { fireId: 7001, ownerKeyId: key.id, kind: 'grad_prob' });
    await until('the alert webhook', async () => rx.at('/relay').some((r) => JSON.parse(r.body).id === `evt_${fire}`));
    // Three looks per run, 200 ms apart when idle: it has continued as new by now, under the same id.
    await until('a continued run', async () => (await w.client.workflow.getHandle(workflowId).describe()).runId !== handle.firstExecutionRunId);
    const first = await w.client.workflow.getHandle(workflowId, handle.firstExecutionRunId).describe();
    expect(first.status.name).toBe('CONTINUED_AS_NEW');
    await w.maybeRecordHistory(workflowId, 'webhook-relay-continued-as-new', handle.firstExecutionRunId);
    expect((await w.client.workflow.getHandle(workflowId).describe()).status.name).toBe('RUNNING');
    // Delivered once, however many looks and runs passed over it.
    await new Promise((r) => setTimeout(r, 1000));
    expect(rx.at('/relay').filter((r) => JSON.parse(r.body).id === `evt_${fire}`)).toHaveLength(1);
  } finally {
    await w.client.workflow.getHandle(workflowId).terminate('test done');
  }
});

it('the starter deletes the old dispatch Schedule and starts the one relay, leaving a running one alone', async () => {
  const { w } = world;
  await w.client.schedule.create({
    scheduleId: WEBHOOK_DISPATCH_SCHEDULE_ID,
    spec: { intervals: [{ every: '1 hour' }] },
    action: { type: 'startWorkflow', workflowType: WEBHOOK_DISPATCH_WORKFLOW, taskQueue: w.taskQueue, workflowId: uniqueId('old-dispatch') },
    state: { paused: true },
  });
  try {
    await ensureWebhookRelay(w.client, w.taskQueue, 2000);
    await expect(w.client.schedule.getHandle(WEBHOOK_DISPATCH_SCHEDULE_ID).describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);
    const run = (await w.client.workflow.getHandle(WEBHOOK_RELAY_WORKFLOW_ID).describe()).runId;
    await ensureWebhookRelay(w.client, w.taskQueue, 2000);
    expect((await w.client.workflow.getHandle(WEBHOOK_RELAY_WORKFLOW_ID).describe()).runId).toBe(run);
  } finally {
    await w.client.workflow
      .getHandle(WEBHOOK_RELAY_WORKFLOW_ID)
      .terminate('test done')
      .catch(() => undefined);
  }
});
