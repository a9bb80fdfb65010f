import { heartbeat } from '../activity-heartbeat';
import type { SubscriptionStore } from '../../db/webhooks/subscription-store';
import type { WebhookEventStore } from '../../db/webhooks/webhook-event-store';
import { webhookEventOf } from '../../domain/webhooks/webhook-event';
import type { WebhookDispatchResult } from '../../workflows/webhooks/webhook-dispatch-contract';
import type { WebhookDeliveryStarter } from '../../workflows/webhooks/webhook-delivery-starter';

export type DispatchDeps = {
  subscriptionStore: SubscriptionStore;
  eventStore: WebhookEventStore;
  starter: WebhookDeliveryStarter;
  /** The crosses (prediction ids) the survival gate withholds from alerts now: their signal events are skipped. */
  withheldCrosses: (predictionIds: number[]) => Promise<Set<number>>;
  scheduleS: number[];
  concurrency: number;
  now: () => Date;
};

const EVENTS_PER_RUN = 200;
const PAGE = 1000;
/** How long after its created_at an outbox row is assumed committed (see db/webhooks/webhook-event-store.ts). */
const SETTLE_S = 300;

/** Runs `fn` over `items`, `n` at a time. */
async function pool<T>(items: T[], n: number, fn: (t: T) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

export function createDispatchActivities(d: DispatchDeps) {
  return {
    /** Fans every new outbox event out: one delivery workflow per matching active subscription. */
    async fanOutWebhookEvents(): Promise<WebhookDispatchResult> {
      let events = 0;
      let deliveries = 0;
      const rows = await d.eventStore.pending(EVENTS_PER_RUN);
      const signalOf = (row: (typeof rows)[number]) => {
        const id = Number(row.payload?.prediction_id);
        return row.kind === 'composite_signal' && Number.isSafeInteger(id) ? id : null;
      };
      // The survival gate's hard suppression (a validating run, a low logged survival score), read once per run.
      const gated = await d.withheldCrosses(rows.map(signalOf).filter((id): id is number => id !== null));
      for (const row of rows) {
        const predictionId = signalOf(row);
        const feedRow = predictionId !== null ? await d.eventStore.signalFeedRow(predictionId) : null;
        const built = webhookEventOf(row, feedRow);
        // No webhook for a gated signal, unless its event is saved already: a fan-out that began before the gate turned
        // on (a retried run) is finished.
        const withheld = built && predictionId !== null && gated.has(predictionId) && !(await d.eventStore.get(row.id));
        if (!built || withheld) {
          await d.eventStore.skip(row, d.now());
          continue;
        }
        const event = await d.eventStore.save(built);
        let n = 0;
        for (let after = 0; ;) {
          const ids = await d.subscriptionStore.pageMatching(event.kind, event.ownerKeyId, after, PAGE, d.now());
          if (ids.length === 0) break;
          await pool(ids, d.concurrency, (webhookId) => d.starter.start({ outboxId: event.outboxId, webhookId, scheduleS: d.scheduleS }));
          n += ids.length;
          after = ids[ids.length - 1]!;
          heartbeat();
        }
        await d.eventStore.markDispatched(event.outboxId, n, d.now());
        events++;
        deliveries += n;
      }
      const cursor = await d.eventStore.advanceCursor(d.now(), SETTLE_S);
      return { events, deliveries, cursor };
    },
  };
}
export type WebhookDispatchActivities = ReturnType<typeof createDispatchActivities>;
