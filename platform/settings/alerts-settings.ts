import { z } from 'zod';
import { defineSettings, invalidSetting, port } from './settings';

/** Alerts through the messaging bot: the audited house rule, rule reloads, the bot's update mode and send pacing. */
export const alertsSettings = defineSettings(
  {
    /** Threshold of the service's own grad_prob rule, the one GET /api/alerts/audit reports (a change starts a new rule). */
    ALERTS_AUDIT_GRAD_PROB: z.coerce.number().min(0.01).max(1).default(0.7),
    /** Owners' tiers change without a rule changing (plan lapse, holder balance): the rule index is rebuilt at least this often. */
    ALERTS_RULES_MAX_AGE_MS: z.coerce.number().int().min(1000).max(3_600_000).default(60_000),
    /** Fires recorded per live refresh at most (the rest wait for the next refreshes, in turn): alerts never hold the live list back. */
    ALERTS_MAX_FIRES_PER_REFRESH: z.coerce.number().int().min(100).max(1_000_000).default(2000),
    /** How the bot receives updates: long polling (getUpdates), a webhook Telegram POSTs to (production behind TLS), or not at all here. */
    BOT_UPDATES_MODE: z.enum(['polling', 'webhook', 'off']).default('polling'),
    /** Webhook mode: the public HTTPS address Telegram POSTs updates to (a TLS proxy in front of the bot process's listener). */
    BOT_WEBHOOK_URL: z.string().url().optional(),
    /** Webhook mode: the secret Telegram sends back in X-Telegram-Bot-Api-Secret-Token (Telegram allows 1-256 of A-Z a-z 0-9 _ -). */
    BOT_WEBHOOK_SECRET: z
      .string()
      .regex(/^[A-Za-z0-9_-]{16,256}$/, '16 to 256 characters of A-Z a-z 0-9 _ -')
      .optional(),
    /** Webhook mode: where the bot process (bot/main-bot.ts) listens for Telegram's POSTs (behind the TLS proxy). */
    BOT_WEBHOOK_HOST: z.string().default('127.0.0.1'),
    /** Webhook mode: where the worker listens, behind the TLS proxy. */
    BOT_WEBHOOK_PORT: port().default(8443),
    /** Telegram's limits: about one message a second per chat and 30 a second overall. */
    BOT_SEND_PER_CHAT_INTERVAL_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
    /** The bot's send pacing (Telegram's limits). */
    BOT_SEND_PER_SECOND: z.coerce.number().int().min(1).max(1000).default(30),
  },
  (e) => {
    if (e.BOT_UPDATES_MODE === 'webhook' && !e.BOT_WEBHOOK_URL) invalidSetting('BOT_WEBHOOK_URL', 'webhook mode needs the public address Telegram posts to');
    if (e.BOT_UPDATES_MODE === 'webhook' && !e.BOT_WEBHOOK_SECRET) invalidSetting('BOT_WEBHOOK_SECRET', 'webhook mode needs a secret token');
    return {
      alerts: {
        auditGradProb: e.ALERTS_AUDIT_GRAD_PROB,
        rulesMaxAgeMs: e.ALERTS_RULES_MAX_AGE_MS,
        maxFiresPerRefresh: e.ALERTS_MAX_FIRES_PER_REFRESH,
        bot: {
          updatesMode: e.BOT_UPDATES_MODE,
          webhook:
            e.BOT_UPDATES_MODE === 'webhook'
              ? { url: e.BOT_WEBHOOK_URL!, secret: e.BOT_WEBHOOK_SECRET!, host: e.BOT_WEBHOOK_HOST, port: e.BOT_WEBHOOK_PORT }
              : null,
          perChatIntervalMs: e.BOT_SEND_PER_CHAT_INTERVAL_MS,
          perSecond: e.BOT_SEND_PER_SECOND,
        },
      },
    };
  },
);
