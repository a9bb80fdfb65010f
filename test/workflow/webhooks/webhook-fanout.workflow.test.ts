import { accuracyActivities } from '../../../activities/accuracy';
import { createSignalStore } from '../../../db/signals/signal-store';
import { createWebhookEventStore } from '../../../db/webhooks/webhook-event-store';
import { webhookEventOf } from '../../../domain/webhooks/webhook-event';
import { loadConfig } from '../../../platform/config';
import { WEBHOOK_DISPATCH_WORKFLOW, type WebhookDispatchResult } from '../../../workflows/webhooks/webhook-dispatch-contract';
import { issueTestKey } from '../../support/access-keys';
import { insertTestCross, testDelivery } from '../../support/composite-fixtures';
import { expectMatchesSchema } from '../../support/contract';
import { insertGateFires, logSurvival } from '../../support/gate-validation-fixtures';
import { addSubscription, insertAlertFire } from '../../support/webhook-fixtures';
import { useWebhookWorld, type WebhookWorld } from '../../support/webhook-world';
import { uniqueId } from '../../support/worker-harness';
import type { KnexDb } from '../../../db/knex-handle';

/**
 * The fan-out from the domain event outbox on the real Temporal server: a composite signal goes to every active
 * subscription selecting its tier, an alert fire only to its owner's subscriptions that select its kind, nothing to a key whose plan ended; a rerun
 * starts nothing again (own cursor and deterministic delivery ids), and the cursor passes settled rows only; while the
 * survival gate validates, a signal with a low logged survival score is skipped.
 */
const world = useWebhookWorld();
let db: KnexDb;
let w: WebhookWorld['w'];
let rx: WebhookWorld['rx'];
beforeAll(() => ({ db, w, rx } = world));

const dispatch = async (record?: string) => {
  const workflowId = uniqueId('webhook-dispatch');
  const r = (await w.client.workflow.execute(WEBHOOK_DISPATCH_WORKFLOW, { taskQueue: w.taskQueue, workflowId })) as WebhookDispatchResult;
  if (record) await w.maybeRecordHistory(workflowId, record);
  return r;
};

async function waitForDeliveries(n: number) {
  for (let i = 0; i < 300; i++) {
    const r = await db('webhook_deliveries').where({ state: 'succeeded' }).count('* as c').first();
    if (Number(r!.c) >= n) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  const rows = await db('webhook_deliveries').select('webhook_id', 'event_id', 'attempt', 'state', 'error');
  throw new Error(`fewer than ${n} deliveries succeeded: ${JSON.stringify(rows)}`);
}

it('fans a signal out to every matching subscription and an alert only to its owner; a rerun delivers nothing twice', async () => {
  const owner = await issueTestKey(db, 'pro');
  const other = await issueTestKey(db, 'enterprise');
  await addSubscription(db, { keyId: owner.id, url: rx.url('/a'), events: 'signal_act,grad_prob' });
  await addSubscription(db, { keyId: owner.id, url: rx.url('/b'), events: 'signal_watch' });
  await addSubscription(db, { keyId: other.id, url: rx.url('/c'), events: '*' });
  const d = await addSubscription(db, { keyId: other.id, url: rx.url('/d'), events: '*' });
  await db('webhook_subscriptions').where({ id: d.id }).update({ active: false, deactivated_reason: 'deleted', deactivated_at: new Date() });
  // A Pro plan that has ended: its subscription stays but gets nothing.
  const lapsed = await issueTestKey(db, 'pro', { planExpiresAt: new Date(Date.now() - 60_000) });
  await addSubscription(db, { keyId: lapsed.id, url: rx.url('/lapsed'), events: '*' });

  // An ACT signal (written with its outbox row by the signals area), an alert of the owner's, and an older settled row.
  const now = Date.now();
  const x = await insertTestCross(db, { crossedAtMs: now - 30_000 });
  await createSignalStore(db).deliver(testDelivery(x, 0.4, now));
  const old = await insertAlertFire(db, { fireId: 1, ownerKeyId: other.id, kind: 'wallet', createdAt: new Date(now - 600_000) });
  const alert = await insertAlertFire(db, { fireId: 2, ownerKeyId: owner.id, kind: 'grad_prob' });

  const first = await dispatch('webhook-dispatch-fan-out');
  expect(first).toMatchObject({ events: 3, deliveries: 2 + 1 + 1 });
  // The settled row is passed; the fresh ones wait above the cursor, done by webhook_events.
  expect(first.cursor).toBe(old);
  await waitForDeliveries(4);

  const signal = JSON.parse(rx.at('/a').find((r) => JSON.parse(r.body).kind === 'signal_act')!.body);
  expectMatchesSchema('SignalWebhookEvent', signal);
  expect(signal.data.signal).toMatchObject({ tier: 'ACT', mint: x.mint });
  expect(JSON.parse(rx.at('/c').find((r) => JSON.parse(r.body).kind === 'signal_act')!.body)).toEqual(signal);
  expect(rx.at('/a').map((r) => JSON.parse(r.body).id)).toEqual(expect.arrayContaining([signal.id, `evt_${alert}`]));
  // The owner's alert never reaches the other key (c selects everything), nor an inactive or non-matching one.
  expect(rx.at('/c').map((r) => JSON.parse(r.body).id)).toEqual(expect.arrayContaining([`evt_${old}`]));
  expect(rx.at('/c').map((r) => JSON.parse(r.body).id)).not.toContain(`evt_${alert}`);
  expect(rx.at('/b')).toHaveLength(0);
  expect(rx.at('/d')).toHaveLength(0);
  expect(rx.at('/lapsed')).toHaveLength(0);

  const again = await dispatch();
  expect(again).toMatchObject({ events: 0, deliveries: 0 });
  // Even with the event forgotten as dispatched, the deterministic ids start nothing twice.
  await db('webhook_events').where({ outbox_id: alert }).update({ dispatched_at: null });
  expect(await dispatch()).toMatchObject({ events: 1, deliveries: 1 });
  await new Promise((r) => setTimeout(r, 1000));
  expect(rx.received).toHaveLength(4);
  expect(Number((await db('webhook_deliveries').count('* as n').first())!.n)).toBe(4);
});

it('sends no webhook for a signal the validating survival gate withholds, and sends the others', async () => {
  const key = await issueTestKey(db, 'pro');
  await addSubscription(db, { keyId: key.id, url: rx.url('/gate'), events: 'signal_act' });
  const deliver = async (survival: number) => {
    const now = Date.now();
    const x = await insertTestCross(db, { crossedAtMs: now - 30_000 });
    await logSurvival(db, x.mint, now - 40_000, survival, x.cross.priceSol);
    await createSignalStore(db).deliver(testDelivery(x, 0.4, now));
    return x.mint;
  };
  // A low-survival signal whose fan-out began before the gate turned on (its event saved, the run then failed):
  // the retried run finishes it rather than leaving it half dispatched under the cursor.
  const begun = await deliver(0.3);
  const events = createWebhookEventStore(db);
  const row = (await events.pending(200)).find((r) => r.kind === 'composite_signal')!;
  await events.save(webhookEventOf(row, await events.signalFeedRow(Number(row.payload.prediction_id)))!);
  // The hourly gate run validates (ratio 5, n ≥ 15 in each group).
  const start = Date.now() - 10 * 3_600_000;
  await insertGateFires(db, start, { n: 20, hits: 10, survival: 0.8 });
  await insertGateFires(db, start + 3_600_000, { n: 20, hits: 2, survival: 0.2 });
  expect(await accuracyActivities.create({ cfg: loadConfig({}), db, now: () => new Date() }).runGateValidation()).toMatchObject({ decision: 'validates' });

  const low = await deliver(0.3);
  const high = await deliver(0.7);
  // Two events fanned out, 3 subscriptions each (the first test's /a and /c select ACT signals too); the withheld one is skipped.
  expect(await dispatch()).toMatchObject({ events: 2, deliveries: 6 });
  for (let i = 0; i < 100 && rx.at('/gate').length < 2; i++) await new Promise((r) => setTimeout(r, 100));
  await new Promise((r) => setTimeout(r, 500));
  expect(rx.at('/gate').map((r) => JSON.parse(r.body).data.signal.mint)).toEqual(expect.arrayContaining([begun, high]));
  expect(rx.at('/gate')).toHaveLength(2);
  expect(JSON.stringify(rx.received)).not.toContain(low);
  // Nothing is left pending under the cursor.
  expect(await events.pending(200)).toEqual([]);
});
