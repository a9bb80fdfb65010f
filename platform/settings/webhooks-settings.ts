import { z } from 'zod';
import { DEFAULT_RETRY_SCHEDULE_S } from '../../domain/webhooks/retry-schedule';
import { DEV_WEBHOOK_SECRET_KEY, parseSecretKey } from '../../domain/webhooks/secret-box';
import { platformSettings } from './platform-settings';
import { bool, csv, defineSettings, invalidSetting } from './settings';

/** Signed webhooks: the key their secrets are encrypted under, the SSRF policy, the retry schedule and the fan-out. */
export const webhooksSettings = defineSettings(
  {
    NODE_ENV: platformSettings.env.NODE_ENV,
    /** 32 bytes (64 hex digits or base64) encrypting subscription secrets at rest; API and worker share it. */
    WEBHOOK_SECRET_KEY: z
      .string()
      .refine((v) => parseSecretKey(v) !== null, '32 bytes as 64 hex digits or base64')
      .optional(),
    /** Tests only: lets deliveries reach loopback and private addresses and plain http. Refused in production. */
    WEBHOOK_ALLOW_PRIVATE_TARGETS: bool.default(false),
    /** Seconds before each attempt (the first is 0); tests shorten it. */
    WEBHOOK_RETRY_SCHEDULE_S: z
      .string()
      .refine((v) => csv(v).length >= 1 && csv(v).every((x) => /^\d+(\.\d+)?$/.test(x)), 'comma-separated seconds')
      .default(DEFAULT_RETRY_SCHEDULE_S.join(',')),
    /** Seconds before each delivery attempt; one attempt's deadline. */
    WEBHOOK_ATTEMPT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
    /** A subscription with no success for this long is deactivated when a delivery to it gives up. */
    WEBHOOK_DEACTIVATE_AFTER_S: z.coerce
      .number()
      .int()
      .min(0)
      .default(72 * 3600),
    /** How long the webhook relay waits before it looks at the outbox again when its last look found nothing. */
    WEBHOOK_DISPATCH_EVERY_S: z.coerce.number().int().min(1).max(600).default(2),
    /** Delivery workflows one look of the relay starts at once. */
    WEBHOOK_START_CONCURRENCY: z.coerce.number().int().min(1).max(512).default(32),
    /** Active subscriptions one key may have. */
    WEBHOOK_MAX_PER_KEY: z.coerce.number().int().min(1).max(100_000).default(25),
  },
  (e) => {
    const production = e.NODE_ENV === 'production';
    if (production && e.WEBHOOK_ALLOW_PRIVATE_TARGETS) invalidSetting('WEBHOOK_ALLOW_PRIVATE_TARGETS', 'never in production');
    const key = e.WEBHOOK_SECRET_KEY ?? (production ? undefined : DEV_WEBHOOK_SECRET_KEY);
    return {
      webhooks: {
        /** Undefined in production until set: creation answers 503 and deliveries fail until it is. */
        secretKey: key === undefined ? undefined : parseSecretKey(key)!,
        allowPrivateTargets: e.WEBHOOK_ALLOW_PRIVATE_TARGETS,
        requireHttps: production,
        retryScheduleS: csv(e.WEBHOOK_RETRY_SCHEDULE_S).map(Number),
        attemptTimeoutMs: e.WEBHOOK_ATTEMPT_TIMEOUT_MS,
        deactivateAfterS: e.WEBHOOK_DEACTIVATE_AFTER_S,
        dispatchEveryS: e.WEBHOOK_DISPATCH_EVERY_S,
        startConcurrency: e.WEBHOOK_START_CONCURRENCY,
        maxPerKey: e.WEBHOOK_MAX_PER_KEY,
      },
    };
  },
);
