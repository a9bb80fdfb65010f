import { OUTBOX_KINDS, type OutboxRow, type WebhookEvent } from '../../domain/webhooks/webhook-event';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

const CONSUMER = 'webhooks';

/**
 * This area's reading of the domain event outbox. Several consumers read it, so it keeps its own cursor and never
 * touches `delivered_at`. Outbox ids are assigned at insert but become visible at commit, so a smaller id can appear
 * after a larger one: the cursor is a low-water mark that only passes rows older than `settleS` (an outbox write
 * commits within seconds of its `created_at`), and above it `webhook_events` says which rows are done.
 */
export function createWebhookEventStore(handle: Db) {
  const db = knexOf(handle);
  const cursor = () => db('webhook_outbox_cursor').where({ consumer: CONSUMER }).select('last_outbox_id');
  return {
    /** Outbox rows of the kinds webhooks deliver that are not fanned out yet, oldest first. */
    async pending(limit: number): Promise<OutboxRow[]> {
      const rows = await db('event_outbox as o')
        .where('o.id', '>', db.raw('coalesce((?), 0)', [cursor()]))
        .whereIn('o.kind', OUTBOX_KINDS as unknown as string[])
        .whereNotExists(db('webhook_events as e').whereRaw('e.outbox_id = o.id').whereNotNull('e.dispatched_at'))
        .orderBy('o.id')
        .limit(limit)
        .select('o.id', 'o.kind', 'o.event_key', 'o.payload', 'o.created_at');
      return rows.map((r) => ({ id: Number(r.id), kind: r.kind, eventKey: r.event_key, payload: r.payload, createdAt: r.created_at }));
    },

    /** A signal's id and cursor in the feed (written in the same transaction as its outbox row). */
    async signalFeedRow(predictionId: number): Promise<{ id: number; cursor: number } | null> {
      const r = await db('signals').where({ prediction_id: predictionId }).first('id', 'cursor');
      return r ? { id: Number(r.id), cursor: Number(r.cursor) } : null;
    },

    /** Keeps the first body written for an event (a rerun signs the same bytes) and returns it. */
    async save(e: WebhookEvent): Promise<WebhookEvent> {
      await db('webhook_events')
        .insert({ outbox_id: e.outboxId, event_id: e.eventId, kind: e.kind, owner_key_id: e.ownerKeyId, body: e.body, created_at: e.createdAt })
        .onConflict('outbox_id')
        .ignore();
      const r = await db('webhook_events').where({ outbox_id: e.outboxId }).first();
      return { ...e, body: r.body, kind: r.kind };
    },

    async get(outboxId: number): Promise<WebhookEvent | null> {
      const r = await db('webhook_events').where({ outbox_id: outboxId }).first();
      return r
        ? {
            outboxId,
            eventId: r.event_id,
            kind: r.kind,
            ownerKeyId: r.owner_key_id === null ? null : Number(r.owner_key_id),
            body: r.body,
            createdAt: r.created_at,
          }
        : null;
    },

    /** An outbox row that is not a webhook event (or is malformed) is done with nothing to deliver. */
    async skip(row: OutboxRow, at: Date): Promise<void> {
      await db('webhook_events')
        .insert({ outbox_id: row.id, event_id: `skip_${row.id}`, kind: 'skipped', body: '', created_at: row.createdAt, dispatched_at: at })
        .onConflict('outbox_id')
        .ignore();
    },

    async markDispatched(outboxId: number, deliveries: number, at: Date): Promise<void> {
      await db('webhook_events').where({ outbox_id: outboxId }).update({ dispatched_at: at, deliveries });
    },

    /** Moves the low-water mark past every settled outbox row below the first one not fanned out yet. */
    async advanceCursor(now: Date, settleS: number): Promise<number> {
      const r = await db.raw(
        `WITH c AS (SELECT coalesce((SELECT last_outbox_id FROM webhook_outbox_cursor WHERE consumer = ?), 0) AS cur),
              m AS (SELECT min(o.id) AS first_open FROM event_outbox o, c WHERE o.id > c.cur AND o.kind = ANY(?)
                      AND NOT EXISTS (SELECT 1 FROM webhook_events e WHERE e.outbox_id = o.id AND e.dispatched_at IS NOT NULL))
         SELECT c.cur, (SELECT max(o.id) FROM event_outbox o, m WHERE o.id > c.cur AND o.created_at < ?
                          AND (m.first_open IS NULL OR o.id < m.first_open)) AS upto FROM c`,
        [CONSUMER, OUTBOX_KINDS as unknown as string[], new Date(now.getTime() - settleS * 1000)],
      );
      const { cur, upto } = r.rows[0];
      if (upto === null) return Number(cur);
      await db('webhook_outbox_cursor')
        .insert({ consumer: CONSUMER, last_outbox_id: upto, updated_at: now })
        .onConflict('consumer')
        .merge(['last_outbox_id', 'updated_at']);
      return Number(upto);
    },
  };
}
export type WebhookEventStore = ReturnType<typeof createWebhookEventStore>;
