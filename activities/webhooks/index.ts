import { createTelegramBot } from '../../clients/telegram/telegram-bot';
import { createWebhookHttpClient } from '../../clients/webhooks/webhook-http-client';
import { createGateValidationStore } from '../../db/accuracy/gate-validation-store';
import { createDeliveryStore } from '../../db/webhooks/delivery-store';
import { createSubscriptionStore } from '../../db/webhooks/subscription-store';
import { createWebhookEventStore } from '../../db/webhooks/webhook-event-store';
import { createWebhookDeliveryStarter } from '../../workflows/webhooks/webhook-delivery-starter';
import { ensureWebhookRelay } from '../../workflows/webhooks/webhook-relay-starter';
import { defineActivityArea, type WorkerContext } from '../activity-area';
import { createDeliveryActivities } from './delivery-activities';
import { createDispatchActivities } from './dispatch-activities';

export const webhooksActivities = defineActivityArea({
  name: 'webhooks',
  deps: ({ cfg, db, temporal, log, now }: WorkerContext) => {
    const w = cfg.webhooks;
    const { messaging } = cfg;
    const gate = createGateValidationStore(db);
    return {
      subscriptionStore: createSubscriptionStore(db),
      deliveryStore: createDeliveryStore(db),
      eventStore: createWebhookEventStore(db),
      http: createWebhookHttpClient({ allowPrivateTargets: w.allowPrivateTargets, requireHttps: w.requireHttps, timeoutMs: w.attemptTimeoutMs }),
      secretKey: w.secretKey,
      deactivateAfterS: w.deactivateAfterS,
      bot: messaging.telegramBotToken ? createTelegramBot({ token: messaging.telegramBotToken, apiRoot: messaging.telegramApiRoot }) : null,
      starter: createWebhookDeliveryStarter(temporal, cfg.temporal.taskQueue),
      withheldCrosses: (ids: number[]) => gate.withheldCrosses(ids),
      scheduleS: w.retryScheduleS,
      concurrency: w.startConcurrency,
      log,
      now,
    };
  },
  activities: (d) => ({ ...createDeliveryActivities(d), ...createDispatchActivities(d) }),
  start: async (_d, { cfg, temporal }) => {
    await ensureWebhookRelay(temporal, cfg.temporal.taskQueue, cfg.webhooks.dispatchEveryS * 1000);
    return () => undefined;
  },
});
