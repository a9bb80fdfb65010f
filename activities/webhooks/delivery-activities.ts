import { BotRecipientRefused, type MessagingBot } from '../../clients/telegram/telegram-bot';
import type { WebhookHttpClient } from '../../clients/webhooks/webhook-http-client';
import type { DeliveryStore } from '../../db/webhooks/delivery-store';
import type { SubscriptionStore } from '../../db/webhooks/subscription-store';
import type { WebhookEventStore } from '../../db/webhooks/webhook-event-store';
import { attemptState, classifyStatus, type AttemptOutcome } from '../../domain/webhooks/retry-schedule';
import { openSecret } from '../../domain/webhooks/secret-box';
import { signDelivery } from '../../domain/webhooks/webhook-signature';
import type { Logger } from '../../platform/logger';

export type DeliveryDeps = {
  subscriptionStore: SubscriptionStore;
  deliveryStore: DeliveryStore;
  eventStore: WebhookEventStore;
  http: WebhookHttpClient;
  secretKey: Buffer | undefined;
  deactivateAfterS: number;
  bot: MessagingBot | null;
  log: Logger;
  now: () => Date;
};

export type AttemptInput = { outboxId: number; webhookId: number; attempt: number; nextRetryInS: number | null };

export function createDeliveryActivities(d: DeliveryDeps) {
  return {
    /** One signed POST, recorded; the receiver's failures are outcomes, only our own failures throw. */
    async attemptWebhookDelivery(a: AttemptInput): Promise<AttemptOutcome> {
      const sub = await d.subscriptionStore.get(a.webhookId);
      if (!sub || !sub.active) return 'inactive';
      const event = await d.eventStore.get(a.outboxId);
      if (!event) throw new Error(`webhook event ${a.outboxId} is not stored`);
      if (!d.secretKey) throw new Error('WEBHOOK_SECRET_KEY is not set: deliveries wait until it is');
      const secret = openSecret(sub.secretSealed, d.secretKey, sub.keyId);
      if (secret === null) throw new Error(`webhook ${sub.id}: its secret does not open under WEBHOOK_SECRET_KEY`);

      const attemptedAt = d.now();
      const headers = signDelivery(secret, event.eventId, Math.floor(attemptedAt.getTime() / 1000), event.body);
      const r = await d.http.post(sub.url, event.body, headers as unknown as Record<string, string>);
      const outcome = classifyStatus(r.statusCode);
      const state = attemptState(outcome, a.nextRetryInS !== null);
      const at = d.now();
      await d.deliveryStore.record({
        webhookId: sub.id,
        keyId: sub.keyId,
        outboxId: event.outboxId,
        eventId: event.eventId,
        eventKind: event.kind,
        attempt: a.attempt,
        state,
        statusCode: r.statusCode,
        error: r.error,
        durationMs: r.durationMs,
        attemptedAt,
        deliveredAt: outcome === 'succeeded' ? at : null,
        nextRetryAt: state === 'retrying' ? new Date(at.getTime() + a.nextRetryInS! * 1000) : null,
      });
      if (outcome === 'succeeded') await d.subscriptionStore.recordSuccess(sub.id, at);
      else await d.subscriptionStore.recordFailure(sub.id, at);
      if (outcome === 'gone') await d.subscriptionStore.deactivate(sub.id, { reason: 'gone', at });
      return outcome;
    },

    /**
     * After a delivery's last attempt: a subscription with no success for WEBHOOK_DEACTIVATE_AFTER_S is deactivated
     * and its owner told, through the messaging bot when the key has a chat. The notice is recorded either way.
     */
    async giveUpWebhookDelivery(a: { webhookId: number }): Promise<'deactivated' | 'kept'> {
      const sub = await d.subscriptionStore.get(a.webhookId);
      const now = d.now();
      if (!sub || !sub.active || !sub.failingSince) return 'kept';
      if (now.getTime() - sub.failingSince.getTime() < d.deactivateAfterS * 1000) return 'kept';
      await d.subscriptionStore.deactivate(sub.id, { reason: 'failing', at: now });
      const chat = await d.subscriptionStore.ownerChat(sub.keyId);
      const text =
        `Your webhook #${sub.id} (${new URL(sub.url).host}) was deactivated: every delivery since ` +
        `${sub.failingSince.toISOString()} failed. Register it again once the receiver answers 2xx.`;
      let notice: { channel: 'telegram' | 'none'; status: 'sent' | 'failed' | 'no_channel'; detail: string | null } = {
        channel: 'none',
        status: 'no_channel',
        detail: null,
      };
      if (chat !== null && d.bot) {
        try {
          await d.bot.send({ chatId: chat, text });
          notice = { channel: 'telegram', status: 'sent', detail: null };
        } catch (e) {
          // A refused recipient is final; anything else is recorded too rather than retried for days.
          notice = { channel: 'telegram', status: 'failed', detail: e instanceof BotRecipientRefused ? e.message : String((e as Error).message) };
        }
      } else if (chat !== null) notice = { channel: 'telegram', status: 'failed', detail: 'TELEGRAM_BOT_TOKEN is not set' };
      await d.subscriptionStore.recordNotice({ webhookId: sub.id, keyId: sub.keyId, ...notice, at: now });
      d.log.warn({ webhookId: sub.id, keyId: sub.keyId, notice: notice.status }, 'webhook deactivated after failing for days');
      return 'deactivated';
    },
  };
}
export type WebhookDeliveryActivities = ReturnType<typeof createDeliveryActivities>;
