import { ALL_EVENTS, type EventKind, type StoredKind } from '../../domain/webhooks/event-kinds';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export type Subscription = {
  id: number;
  keyId: number;
  url: string;
  events: string;
  /** The kinds selected, or `*` alone for every kind (matched at delivery, so later kinds reach it). */
  eventKinds: StoredKind[];
  secretSealed: string;
  active: boolean;
  createdAt: Date;
  deactivatedAt: Date | null;
  deactivatedReason: 'deleted' | 'gone' | 'failing' | null;
  lastDeliveryAt: Date | null;
  lastSuccessAt: Date | null;
  failingSince: Date | null;
  consecutiveFailures: number;
};

const row = (r: any): Subscription => ({
  id: Number(r.id),
  keyId: Number(r.key_id),
  url: r.url,
  events: r.events,
  eventKinds: r.event_kinds,
  secretSealed: r.secret_sealed,
  active: r.active,
  createdAt: r.created_at,
  deactivatedAt: r.deactivated_at,
  deactivatedReason: r.deactivated_reason,
  lastDeliveryAt: r.last_delivery_at,
  lastSuccessAt: r.last_success_at,
  failingSince: r.failing_since,
  consecutiveFailures: r.consecutive_failures,
});

/** Webhook subscriptions: written by the API (create, delete) and by delivery activities (outcomes, 410, failing). */
export function createSubscriptionStore(handle: Db) {
  const db = knexOf(handle);
  return {
    async create(s: { keyId: number; url: string; events: string; eventKinds: StoredKind[]; secretSealed: string; at: Date }): Promise<Subscription> {
      const [r] = await db('webhook_subscriptions')
        .insert({ key_id: s.keyId, url: s.url, events: s.events, event_kinds: s.eventKinds, secret_sealed: s.secretSealed, created_at: s.at })
        .returning('*');
      return row(r);
    },

    async countActive(keyId: number): Promise<number> {
      const [r] = await db('webhook_subscriptions').where({ key_id: keyId, active: true }).count('* as n');
      return Number(r!.n);
    },

    async listByKey(keyId: number): Promise<Subscription[]> {
      return (await db('webhook_subscriptions').where({ key_id: keyId }).orderBy('id', 'desc')).map(row);
    },

    async get(id: number): Promise<Subscription | null> {
      const r = await db('webhook_subscriptions').where({ id }).first();
      return r ? row(r) : null;
    },

    /** Deactivates (idempotent: an inactive one keeps its first reason and time). Null when it is not this key's. */
    async deactivate(id: number, o: { keyId?: number; reason: 'deleted' | 'gone' | 'failing'; at: Date }): Promise<Subscription | null> {
      const q = db('webhook_subscriptions').where({ id });
      if (o.keyId !== undefined) q.where({ key_id: o.keyId });
      await q.clone().where({ active: true }).update({ active: false, deactivated_at: o.at, deactivated_reason: o.reason });
      const r = await q.first();
      return r ? row(r) : null;
    },

    /**
     * Active subscriptions selecting `kind` (of `ownerKeyId` only, when set), by id after `afterId`: the fan-out's pages.
     * Only keys still entitled to webhooks (spec section 8: a Pro or Enterprise plan that has not ended; holder-token
     * access never reaches Pro) are delivered to; a lapsed key's subscriptions stay, and resume if the plan is renewed.
     */
    async pageMatching(kind: EventKind, ownerKeyId: number | null, afterId: number, limit: number, at: Date): Promise<number[]> {
      const q = db('webhook_subscriptions as s')
        .where('s.active', true)
        .whereExists(
          db('api_keys as k')
            .whereRaw('k.id = s.key_id')
            .whereNull('k.revoked_at')
            .whereIn('k.tier', ['pro', 'enterprise'])
            .where((w) => w.whereNull('k.plan_expires_at').orWhere('k.plan_expires_at', '>', at)),
        )
        // Overlap with {kind, '*'}: the kind itself, or every kind (the GIN index serves `&&` too).
        .whereRaw('s.event_kinds && ARRAY[?, ?]::text[]', [kind, ALL_EVENTS])
        .where('s.id', '>', afterId)
        .orderBy('s.id')
        .limit(limit)
        .select('s.id');
      if (ownerKeyId !== null) q.where('s.key_id', ownerKeyId);
      return (await q).map((r) => Number(r.id));
    },

    async recordSuccess(id: number, at: Date): Promise<void> {
      await db('webhook_subscriptions').where({ id }).update({ last_delivery_at: at, last_success_at: at, failing_since: null, consecutive_failures: 0 });
    },

    async recordFailure(id: number, at: Date): Promise<void> {
      await db('webhook_subscriptions')
        .where({ id })
        .update({ last_delivery_at: at, failing_since: db.raw('coalesce(failing_since, ?)', [at]), consecutive_failures: db.raw('consecutive_failures + 1') });
    },

    /**
     * The messaging chat bound to the key, if any: the chat most recently linked to it in the bot (`/link`) that has
     * not blocked the bot, else the latest `telegram_id` given with one of its plan payments.
     */
    async ownerChat(keyId: number): Promise<number | null> {
      const linked = await db('bot_chats').where({ owner_key_id: keyId }).whereNull('blocked_at').orderBy('linked_at', 'desc').first('chat_id');
      if (linked) return Number(linked.chat_id);
      const r = await db('payment_intents').where({ key_id: keyId }).whereNotNull('telegram_id').orderBy('created_at', 'desc').first('telegram_id');
      return r ? Number(r.telegram_id) : null;
    },

    async recordNotice(n: {
      webhookId: number;
      keyId: number;
      channel: 'telegram' | 'none';
      status: 'sent' | 'failed' | 'no_channel';
      detail: string | null;
      at: Date;
    }) {
      await db('webhook_notices')
        .insert({ webhook_id: n.webhookId, key_id: n.keyId, channel: n.channel, status: n.status, detail: n.detail, created_at: n.at })
        .onConflict('webhook_id')
        .ignore();
    },
  };
}
export type SubscriptionStore = ReturnType<typeof createSubscriptionStore>;
