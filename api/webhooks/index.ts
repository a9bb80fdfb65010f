import { createDeliveryStore } from '../../db/webhooks/delivery-store';
import { createSubscriptionStore } from '../../db/webhooks/subscription-store';
import { defineApiArea } from '../api-area';
import { webhookRoutes } from './webhook-routes';

export const webhooksApi = defineApiArea({
  name: 'webhooks',
  deps: (ctx) => ({
    subscriptionStore: createSubscriptionStore(ctx.db),
    deliveryStore: createDeliveryStore(ctx.db),
    secretKey: ctx.cfg.webhooks.secretKey,
    policy: { requireHttps: ctx.cfg.webhooks.requireHttps, allowPrivateTargets: ctx.cfg.webhooks.allowPrivateTargets },
    maxPerKey: ctx.cfg.webhooks.maxPerKey,
    now: ctx.now,
  }),
  parts: (d) => ({ routes: [webhookRoutes(d)] }),
});
