import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export type DeliveryAttempt = {
  id: number;
  webhookId: number;
  keyId: number;
  outboxId: number;
  eventId: string;
  eventKind: string;
  attempt: number;
  state: 'succeeded' | 'failed' | 'retrying' | 'gave_up';
  statusCode: number | null;
  error: string | null;
  durationMs: number | null;
  attemptedAt: Date;
  deliveredAt: Date | null;
  nextRetryAt: Date | null;
};

const row = (r: any): DeliveryAttempt => ({
  id: Number(r.id),
  webhookId: Number(r.webhook_id),
  keyId: Number(r.key_id),
  outboxId: Number(r.outbox_id),
  eventId: r.event_id,
  eventKind: r.event_kind,
  attempt: r.attempt,
  state: r.state,
  statusCode: r.status_code,
  error: r.error,
  durationMs: r.duration_ms,
  attemptedAt: r.attempted_at,
  deliveredAt: r.delivered_at,
  nextRetryAt: r.next_retry_at,
});

/** Every delivery attempt, once each: (webhook, event, attempt) is unique, so a retried activity records nothing twice. */
export function createDeliveryStore(handle: Db) {
  const db = knexOf(handle);
  return {
    async record(a: Omit<DeliveryAttempt, 'id'>): Promise<void> {
      await db('webhook_deliveries')
        .insert({
          webhook_id: a.webhookId,
          key_id: a.keyId,
          outbox_id: a.outboxId,
          event_id: a.eventId,
          event_kind: a.eventKind,
          attempt: a.attempt,
          state: a.state,
          status_code: a.statusCode,
          error: a.error,
          duration_ms: a.durationMs,
          attempted_at: a.attemptedAt,
          delivered_at: a.deliveredAt,
          next_retry_at: a.nextRetryAt,
        })
        .onConflict(['webhook_id', 'outbox_id', 'attempt'])
        .ignore();
    },

    /** The key's latest attempts across its webhooks, newest first. */
    async latestForKey(keyId: number, limit: number): Promise<DeliveryAttempt[]> {
      return (await db('webhook_deliveries').where({ key_id: keyId }).orderBy('id', 'desc').limit(limit)).map(row);
    },

    async forEvent(outboxId: number): Promise<DeliveryAttempt[]> {
      return (await db('webhook_deliveries').where({ outbox_id: outboxId }).orderBy('id')).map(row);
    },
  };
}
export type DeliveryStore = ReturnType<typeof createDeliveryStore>;
