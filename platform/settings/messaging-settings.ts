import { z } from 'zod';
import { defineSettings } from './settings';

/** The messaging bot (Telegram Bot API) that sends renewal reminders and, later, signals. */
export const messagingSettings = defineSettings(
  {
    /** Its token from @BotFather, a secret; unset, bot messages are recorded as not sent. */
    TELEGRAM_BOT_TOKEN: z
      .string()
      .regex(/^\d+:[\w-]{20,}$/, 'a Telegram bot token (<bot id>:<secret>)')
      .optional(),
    /** Telegram's public Bot API server, or a self-hosted one. */
    TELEGRAM_API_ROOT: z.string().url().default('https://api.telegram.org'),
  },
  (e) => ({ messaging: { telegramBotToken: e.TELEGRAM_BOT_TOKEN, telegramApiRoot: e.TELEGRAM_API_ROOT.replace(/\/+$/, '') } }),
);
