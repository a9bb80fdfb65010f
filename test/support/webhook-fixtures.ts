import { randomBytes } from 'node:crypto';
import { createSubscriptionStore } from '../../db/webhooks/subscription-store';
import { parseEventSelection } from '../../domain/webhooks/event-kinds';
import { DEV_WEBHOOK_SECRET_KEY, parseSecretKey, sealSecret } from '../../domain/webhooks/secret-box';
import { newSecret } from '../../domain/webhooks/webhook-signature';
import type { KnexDb } from '../../db/knex-handle';

/** A subscription as POST /api/v1/webhooks makes it (secret sealed under the development key); returns its id and secret. */
export async function addSubscription(db: KnexDb, o: { keyId: number; url: string; events?: string }) {
  const events = o.events ?? '*';
  const selection = parseEventSelection(events);
  if (!selection.ok) throw new Error(`bad events ${events}`);
  const secret = newSecret(randomBytes(32));
  const sub = await createSubscriptionStore(db).create({
    keyId: o.keyId,
    url: o.url,
    events,
    eventKinds: selection.kinds,
    secretSealed: sealSecret(secret, parseSecretKey(DEV_WEBHOOK_SECRET_KEY)!, o.keyId),
    at: new Date(),
  });
  return { id: sub.id, secret };
}

/** An alert fire as the alerts area writes it to the outbox (issue 16's shape). */
export async function insertAlertFire(db: KnexDb, o: { fireId: number; ownerKeyId: number; kind?: string; mint?: string; createdAt?: Date }) {
  const at = o.createdAt ?? new Date();
  const [r] = await db('event_outbox')
    .insert({
      kind: 'alert_fire',
      event_key: `alert:${o.fireId}`,
      payload: JSON.stringify({
        fire_id: o.fireId,
        rule_id: 1,
        owner_key_id: o.ownerKeyId,
        kind: o.kind ?? 'grad_prob',
        mint: o.mint ?? 'So11111111111111111111111111111111111111112',
        fired_at: at.toISOString(),
        facts: { value: 0.42, threshold: 0.4 },
      }),
      created_at: at,
    })
    .returning('id');
  return Number(r.id);
}

/**
 * Delivery workflow ids come from outbox and subscription ids, unique within one deployment; test files share one
 * Temporal server over separate databases, so each file starts those sequences at a random offset.
 */
export async function isolateWebhookIds(db: KnexDb) {
  const base = 1 + Math.floor(Math.random() * 1e9) * 1000;
  await db.raw(`ALTER SEQUENCE event_outbox_id_seq RESTART WITH ${base}`);
  await db.raw(`ALTER SEQUENCE webhook_subscriptions_id_seq RESTART WITH ${base}`);
}
