import { Webhook } from 'standardwebhooks';
import { createWebhookEventStore } from '../../../db/webhooks/webhook-event-store';
import { webhookEventOf } from '../../../domain/webhooks/webhook-event';
import { WEBHOOK_DELIVERY_WORKFLOW, webhookDeliveryWorkflowId, type WebhookDeliveryResult } from '../../../workflows/webhooks/webhook-delivery-contract';
import { startWebhookReceiver, type WebhookReceiver } from '../../fakes/webhook-receiver';
import { startTelegramBotApiServer, type TelegramBotApiFake } from '../../fakes/telegram-bot-api-server';
import { issueTestKey } from '../../support/access-keys';
import { expectMatchesSchema } from '../../support/contract';
import { createTestDatabase } from '../../support/test-db';
import { addSubscription, insertAlertFire, isolateWebhookIds } from '../../support/webhook-fixtures';
import { startWorker } from '../../support/worker-harness';
import type { KnexDb } from '../../../db/knex-handle';

/**
 * One delivery workflow per (event, subscription) on the real Temporal server against real local receivers, with the
 * retry schedule shortened by configuration (0 s, 1 s, 1 s): success with a body the standardwebhooks package
 * verifies, 500 then 200, 410 (deactivates), a receiver that never answers (gives up, deactivates, tells the owner
 * through the bot), and a duplicate start that delivers nothing twice.
 */
const TOKEN = '123456:webhook-test-token-abcdefghij';
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: KnexDb;
let w: Awaited<ReturnType<typeof startWorker>>;
let rx: WebhookReceiver;
let bot: TelegramBotApiFake;
let keyId: number;
let fireId = 1;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  await isolateWebhookIds(db);
  rx = await startWebhookReceiver();
  bot = await startTelegramBotApiServer(TOKEN);
  w = await startWorker(db, {
    env: {
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_SCHEDULE_S: '0,1,1',
      WEBHOOK_ATTEMPT_TIMEOUT_MS: '500',
      WEBHOOK_DEACTIVATE_AFTER_S: '0',
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_API_ROOT: bot.apiRoot,
    },
  });
  keyId = (await issueTestKey(db, 'pro')).id;
}, 60_000);
afterAll(async () => {
  await w?.stop();
  await rx?.close();
  await bot?.close();
  await database?.drop();
});

/** Stores an alert event for `keyId` as the fan-out would, and runs its delivery to `webhookId` to the end. */
async function deliver(webhookId: number, o: { record?: string } = {}): Promise<{ result: WebhookDeliveryResult; outboxId: number; workflowId: string }> {
  const outboxId = await insertAlertFire(db, { fireId: fireId++, ownerKeyId: keyId });
  const row = await db('event_outbox').where({ id: outboxId }).first();
  await createWebhookEventStore(db).save(
    webhookEventOf({ id: outboxId, kind: row.kind, eventKey: row.event_key, payload: row.payload, createdAt: row.created_at })!,
  );
  const workflowId = webhookDeliveryWorkflowId(outboxId, webhookId);
  const result = await w.client.workflow.execute(WEBHOOK_DELIVERY_WORKFLOW, {
    taskQueue: w.taskQueue,
    workflowId,
    args: [{ outboxId, webhookId, scheduleS: [0, 1, 1] }],
  });
  if (o.record) await w.maybeRecordHistory(workflowId, o.record);
  return { result: result as WebhookDeliveryResult, outboxId, workflowId };
}

/** What the delivery cost Temporal: its workflow tasks and the activity tasks it scheduled. */
async function temporalWork(workflowId: string) {
  const events = (await w.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  return {
    workflowTasks: events.filter((e) => e.workflowTaskCompletedEventAttributes).length,
    activityTasks: events.filter((e) => e.activityTaskScheduledEventAttributes).length,
    timers: events.filter((e) => e.timerStartedEventAttributes).length,
  };
}

const attempts = (outboxId: number) => db('webhook_deliveries').where({ outbox_id: outboxId }).orderBy('attempt');

describe('webhook delivery workflow', () => {
  it('delivers once on a 2xx; the body and headers verify with the standardwebhooks package', async () => {
    const sub = await addSubscription(db, { keyId, url: rx.url('/ok') });
    const { result, outboxId, workflowId } = await deliver(sub.id, { record: 'webhook-delivery-succeeded' });
    expect(result).toEqual({ outcome: 'succeeded', attempts: 1 });
    // The attempt is a local activity: a delivery that succeeds at once is one workflow task and no activity task.
    expect(await temporalWork(workflowId)).toEqual({ workflowTasks: 1, activityTasks: 0, timers: 0 });
    const [got] = rx.at('/ok');
    const body = JSON.parse(got!.body);
    expect(body).toMatchObject({ id: `evt_${outboxId}`, kind: 'grad_prob', data: { rule_id: 1, facts: { value: 0.42 } } });
    expect(body.data).not.toHaveProperty('owner_key_id');
    expectMatchesSchema('AlertWebhookEvent', body);
    expect(new Webhook(sub.secret).verify(got!.body, got!.headers as Record<string, string>)).toEqual(body);
    expect(got!.headers['x-service-event-id']).toBe(`evt_${outboxId}`);
    expect(await attempts(outboxId)).toMatchObject([{ attempt: 1, state: 'succeeded', status_code: 200, error: null, next_retry_at: null }]);
    expect(await db('webhook_subscriptions').where({ id: sub.id }).first()).toMatchObject({ active: true, consecutive_failures: 0 });
  });

  it('retries a 500 on the schedule, then succeeds; every attempt is recorded', async () => {
    const sub = await addSubscription(db, { keyId, url: rx.url('/flaky') });
    rx.script('/flaky', [500, 200]);
    const { result, outboxId, workflowId } = await deliver(sub.id, { record: 'webhook-delivery-retried' });
    expect(result).toEqual({ outcome: 'succeeded', attempts: 2 });
    // The wait between attempts is a durable timer; the attempts run in the workflow tasks.
    expect(await temporalWork(workflowId)).toEqual({ workflowTasks: 2, activityTasks: 0, timers: 1 });
    const [a1, a2] = rx.at('/flaky');
    expect(a2!.at - a1!.at).toBeGreaterThanOrEqual(900);
    // Same event, same bytes, same id on the retry; the timestamp is the attempt's own.
    expect([a2!.body, a2!.headers['webhook-id']]).toEqual([a1!.body, a1!.headers['webhook-id']]);
    const rows = await attempts(outboxId);
    expect(rows).toMatchObject([
      { attempt: 1, state: 'retrying', status_code: 500, error: 'HTTP 500' },
      { attempt: 2, state: 'succeeded', status_code: 200, error: null },
    ]);
    expect(rows[0].next_retry_at).not.toBeNull();
  });

  it('410 Gone deactivates the subscription; the next delivery to it sends nothing', async () => {
    const sub = await addSubscription(db, { keyId, url: rx.url('/gone') });
    rx.script('/gone', [410]);
    const first = await deliver(sub.id, { record: 'webhook-delivery-gone' });
    expect(first.result).toEqual({ outcome: 'gone', attempts: 1 });
    expect(await attempts(first.outboxId)).toMatchObject([{ state: 'failed', status_code: 410 }]);
    expect(await db('webhook_subscriptions').where({ id: sub.id }).first()).toMatchObject({ active: false, deactivated_reason: 'gone' });
    const second = await deliver(sub.id);
    expect(second.result).toEqual({ outcome: 'inactive', attempts: 1 });
    expect(rx.at('/gone')).toHaveLength(1);
  });

  it('gives up after the last attempt on a receiver that never answers; deactivates and tells the owner through the bot', async () => {
    await db('payment_intents').insert({
      memo: 'webhook-owner-memo',
      tier: 'pro',
      plan: 'monthly',
      amount_lamports: 1,
      treasury: 'T',
      key_id: keyId,
      key_prefix: 'p',
      key_minted: false,
      telegram_id: 4242,
      created_at: new Date(),
      expires_at: new Date(),
    });
    // The key's owner also linked a chat in the bot: that chat is told, not the one given with the payment.
    await db('bot_chats').insert({ chat_id: 4243, owner_key_id: keyId, linked_at: new Date(), created_at: new Date() });
    bot.startChat(4242);
    bot.startChat(4243);
    const sub = await addSubscription(db, { keyId, url: rx.url('/hang') });
    rx.script('/hang', ['hang']);
    const { result, outboxId } = await deliver(sub.id, { record: 'webhook-delivery-gave-up' });
    expect(result).toEqual({ outcome: 'gave_up', attempts: 3 });
    expect(await attempts(outboxId)).toMatchObject([
      { attempt: 1, state: 'retrying', status_code: null, error: 'timeout after 500 ms' },
      { attempt: 2, state: 'retrying' },
      { attempt: 3, state: 'gave_up', next_retry_at: null },
    ]);
    expect(await db('webhook_subscriptions').where({ id: sub.id }).first()).toMatchObject({
      active: false,
      deactivated_reason: 'failing',
      consecutive_failures: 3,
    });
    expect(await db('webhook_notices').where({ webhook_id: sub.id }).first()).toMatchObject({ channel: 'telegram', status: 'sent' });
    expect(bot.sent.find((m) => m.chatId === 4243)?.text).toContain(`webhook #${sub.id}`);
    expect(bot.sent.find((m) => m.chatId === 4242)).toBeUndefined();
  });

  it('a second start of the same (event, subscription) delivers nothing again', async () => {
    const sub = await addSubscription(db, { keyId, url: rx.url('/once') });
    const { outboxId } = await deliver(sub.id);
    await expect(
      w.client.workflow.start(WEBHOOK_DELIVERY_WORKFLOW, {
        taskQueue: w.taskQueue,
        workflowId: webhookDeliveryWorkflowId(outboxId, sub.id),
        args: [{ outboxId, webhookId: sub.id, scheduleS: [0] }],
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
      }),
    ).rejects.toThrow();
    expect(rx.at('/once')).toHaveLength(1);
  });
});
