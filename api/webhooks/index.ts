import { createTargetHostCheck } from '../../clients/webhooks/target-host-check';
import { createDeliveryStore } from '../../db/webhooks/delivery-store';
import { createSubscriptionStore } from '../../db/webhooks/subscription-store';
import { defineApiArea } from '../api-area';
import { webhookRoutes } from './webhook-routes';

/** A registration waits this long for the host name's addresses; a slower resolver is not a reason to refuse. */
const REGISTRATION_RESOLVE_TIMEOUT_MS = 2000;

export const webhooksApi = defineApiArea({
  name: 'webhooks',
  deps: (ctx) => ({
    subscriptionStore: createSubscriptionStore(ctx.db),
    deliveryStore: createDeliveryStore(ctx.db),
    secretKey: ctx.cfg.webhooks.secretKey,
    policy: { requireHttps: ctx.cfg.webhooks.requireHttps, allowPrivateTargets: ctx.cfg.webhooks.allowPrivateTargets },
    checkHost: createTargetHostCheck({ timeoutMs: REGISTRATION_RESOLVE_TIMEOUT_MS }),
    maxPerKey: ctx.cfg.webhooks.maxPerKey,
    now: ctx.now,
  }),
  parts: (d) => ({ routes: [webhookRoutes(d)] }),
});
