import { isAlertEventKind, signalEventKind, type EventKind } from './event-kinds';

/** An outbox row as the webhooks area reads it (db/signals and the alerts area write them). */
export type OutboxRow = { id: number; kind: string; eventKey: string; payload: any; createdAt: Date };

/** What one event fans out as: its id (the `webhook-id`), its kind, whose it is (null: everyone's), and the exact body. */
export type WebhookEvent = { outboxId: number; eventId: string; kind: EventKind; ownerKeyId: number | null; body: string; createdAt: Date };

export const OUTBOX_KINDS = ['composite_signal', 'alert_fire'] as const;

export const eventIdOf = (outboxId: number) => `evt_${outboxId}`;

/**
 * The delivered body, serialized once here so every subscription and every retry signs the same bytes:
 * `{ id, kind, created_at, data }`. A signal's data is the signal as /api/v1/signals has it (its feed row's id and
 * cursor, which the outbox payload predates, come from `feedRow`) with the prediction id;
 * an alert's is the fire without its owner. Null for outbox rows that are not webhook events, or malformed.
 */
export function webhookEventOf(row: OutboxRow, feedRow: { id: number; cursor: number } | null = null): WebhookEvent | null {
  const base = { outboxId: row.id, eventId: eventIdOf(row.id), createdAt: row.createdAt };
  const p = row.payload ?? {};
  if (row.kind === 'composite_signal') {
    const tier = p.signal?.tier;
    if ((tier !== 'ACT' && tier !== 'WATCH' && tier !== 'SCOUT') || !feedRow) return null;
    const kind = signalEventKind(tier);
    const data = { prediction_id: Number(p.prediction_id), signal: { id: feedRow.id, cursor: feedRow.cursor, ...p.signal } };
    return { ...base, kind, ownerKeyId: null, body: bodyOf(base.eventId, kind, row.createdAt, data) };
  }
  if (row.kind === 'alert_fire') {
    if (!isAlertEventKind(p.kind) || !Number.isSafeInteger(Number(p.owner_key_id))) return null;
    const data = { fire_id: p.fire_id, rule_id: p.rule_id, mint: p.mint, fired_at: p.fired_at, facts: p.facts ?? {} };
    return { ...base, kind: p.kind, ownerKeyId: Number(p.owner_key_id), body: bodyOf(base.eventId, p.kind, row.createdAt, data) };
  }
  return null;
}

const bodyOf = (id: string, kind: EventKind, createdAt: Date, data: object) => JSON.stringify({ id, kind, created_at: createdAt.toISOString(), data });
