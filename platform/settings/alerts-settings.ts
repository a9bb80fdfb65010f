import { z } from 'zod';
import { defineSettings } from './settings';

/** Alerts through the messaging bot: the audited house rule, rule reloads, the bot's update mode and send pacing. */
export const alertsSettings = defineSettings(
  {
    /** Threshold of the service's own grad_prob rule, the one GET /api/alerts/audit reports (a change starts a new rule). */
    ALERTS_AUDIT_GRAD_PROB: z.coerce.number().min(0.01).max(1).default(0.7),
    /** Owners' tiers change without a rule changing (plan lapse, holder balance): the rule index is rebuilt at least this often. */
    ALERTS_RULES_MAX_AGE_MS: z.coerce.number().int().min(1000).max(3_600_000).default(60_000),
    /** How the bot receives updates: long polling (getUpdates), or not at all here. Webhook mode is not built yet. */
    BOT_UPDATES_MODE: z.enum(['polling', 'off']).default('polling'),
    /** Telegram's limits: about one message a second per chat and 30 a second overall. */
    BOT_SEND_PER_CHAT_INTERVAL_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
    BOT_SEND_PER_SECOND: z.coerce.number().int().min(1).max(1000).default(30),
  },
  (e) => ({
    alerts: {
      auditGradProb: e.ALERTS_AUDIT_GRAD_PROB,
      rulesMaxAgeMs: e.ALERTS_RULES_MAX_AGE_MS,
      bot: {
        updatesMode: e.BOT_UPDATES_MODE,
        perChatIntervalMs: e.BOT_SEND_PER_CHAT_INTERVAL_MS,
        perSecond: e.BOT_SEND_PER_SECOND,
      },
    },
  }),
);
