import { randomBytes } from 'node:crypto';
import { Router, type Response } from 'express';
import type { DeliveryAttempt, DeliveryStore } from '../../db/webhooks/delivery-store';
import type { Subscription, SubscriptionStore } from '../../db/webhooks/subscription-store';
import { parseEventSelection, selectedKinds } from '../../domain/webhooks/event-kinds';
import { sealSecret } from '../../domain/webhooks/secret-box';
import type { TargetHostCheck } from '../../clients/webhooks/target-host-check';
import { isIpLiteral } from '../../domain/webhooks/blocked-address';
import { checkTargetUrl, targetHost, type TargetPolicy } from '../../domain/webhooks/target-url';
import { newSecret } from '../../domain/webhooks/webhook-signature';
import { missingKey } from '../access/access-errors';
import { bodyError } from '../access/body-error';
import { callerAccess } from '../access/key-auth';
import { notFound, unavailable } from '../http/http-error';
import { iso } from '../http/iso';

export type WebhookRouteDeps = {
  subscriptionStore: SubscriptionStore;
  deliveryStore: DeliveryStore;
  secretKey: Buffer | undefined;
  policy: TargetPolicy;
  /** Resolves a target's host name at registration (the delivery client checks again at every connect). */
  checkHost: TargetHostCheck;
  maxPerKey: number;
  now: () => Date;
};

const view = (s: Subscription) => ({
  id: s.id,
  url: s.url,
  events: s.events,
  event_kinds: selectedKinds(s.eventKinds),
  active: s.active,
  created_at: s.createdAt.toISOString(),
  deactivated_at: iso(s.deactivatedAt),
  deactivated_reason: s.deactivatedReason,
  last_delivery_at: iso(s.lastDeliveryAt),
  consecutive_failures: s.consecutiveFailures,
});

const deliveryView = (a: DeliveryAttempt) => ({
  id: a.id,
  webhook_id: a.webhookId,
  event_id: a.eventId,
  event_kind: a.eventKind,
  attempt: a.attempt,
  state: a.state,
  status_code: a.statusCode,
  error: a.error,
  duration_ms: a.durationMs,
  attempted_at: a.attemptedAt.toISOString(),
  delivered_at: iso(a.deliveredAt),
  next_retry_at: iso(a.nextRetryAt),
});

/** Subscriptions belong to a key: in the beta window a call without one has nothing to own them (401). */
function ownerKeyId(res: Response): number {
  const access = callerAccess(res);
  if (access?.kind !== 'key') throw missingKey();
  return access.key.id;
}

/** The four webhook operations (Pro and up: the tier is checked by the key guard from `x-min-tier`). */
export function webhookRoutes(d: WebhookRouteDeps): Router {
  const r = Router();

  r.post('/api/v1/webhooks', async (req, res) => {
    const keyId = ownerKeyId(res);
    const body = req.body as { url: string; events: string };
    const target = checkTargetUrl(body.url, d.policy);
    if (!target.ok) throw bodyError(['body', 'url'], target.why, 'value_error', body.url);
    const host = targetHost(target.url);
    const resolvedWhy = d.policy.allowPrivateTargets || isIpLiteral(host) ? null : await d.checkHost(host);
    if (resolvedWhy) throw bodyError(['body', 'url'], resolvedWhy, 'value_error', body.url);
    const selection = parseEventSelection(body.events);
    if (!selection.ok) throw bodyError(['body', 'events'], `unknown event kinds: ${selection.unknown.join(', ')}`, 'value_error', body.events);
    if (!d.secretKey) throw unavailable('webhooks are not configured on this deployment (WEBHOOK_SECRET_KEY)', 300);
    if ((await d.subscriptionStore.countActive(keyId)) >= d.maxPerKey)
      throw bodyError(['body'], `a key may have at most ${d.maxPerKey} active webhooks; delete one first`, 'value_error');
    const secret = newSecret(randomBytes(32));
    const sub = await d.subscriptionStore.create({
      keyId,
      url: target.url.href,
      events: body.events,
      eventKinds: selection.kinds,
      secretSealed: sealSecret(secret, d.secretKey, keyId),
      at: d.now(),
    });
    res
      .status(201)
      .set('Cache-Control', 'no-store')
      .json({ ...view(sub), secret });
  });

  r.get('/api/v1/webhooks', async (_req, res) => {
    const subs = await d.subscriptionStore.listByKey(ownerKeyId(res));
    res.set('Cache-Control', 'no-store').json({ count: subs.length, webhooks: subs.map(view) });
  });

  r.get('/api/v1/webhooks/deliveries', async (req, res) => {
    const limit = (req.query as { limit?: number }).limit ?? 50;
    const attempts = await d.deliveryStore.latestForKey(ownerKeyId(res), limit);
    res.set('Cache-Control', 'no-store').json({ count: attempts.length, deliveries: attempts.map(deliveryView) });
  });

  r.delete('/api/v1/webhooks/:webhook_id', async (req, res) => {
    const id = Number(req.params.webhook_id);
    const sub = await d.subscriptionStore.deactivate(id, { keyId: ownerKeyId(res), reason: 'deleted', at: d.now() });
    if (!sub) throw notFound(`no webhook ${id} on this key`);
    res.set('Cache-Control', 'no-store').json(view(sub));
  });

  return r;
}
