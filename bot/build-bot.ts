import type { Client } from '@temporalio/client';
import { createTelegramUpdates } from '../clients/telegram/telegram-updates';
import { createBotPollStore } from '../db/alerts/bot-poll-store';
import { createBotWebhookUpdateStore } from '../db/alerts/bot-webhook-update-store';
import type { Db } from '../db/db-handle';
import type { Config } from '../platform/config';
import type { Logger } from '../platform/logger';
import { createBotPoller } from './bot-poller';
import { createBotWebhook } from './bot-webhook';
import { buildBotHandler } from './build-bot-handler';

export type BotContext = { cfg: Config; db: Db; log: Logger; now: () => Date; temporal?: Client };

/**
 * The bot's update side over one context: its commands' handler, and how updates arrive: long polling by default,
 * or a webhook listener (BOT_UPDATES_MODE=webhook). Replies go into the durable send queue, which the worker's
 * sender activity drains. Temporal is optional: without it (some tests) /upgrade leaves its workflow to billing's
 * outbox sweep and /link wallet answers that it is unavailable.
 */
export function buildBot({ cfg, db, log, now, temporal }: BotContext) {
  const token = cfg.messaging.telegramBotToken;
  const apiRoot = cfg.messaging.telegramApiRoot;
  const updates = token ? createTelegramUpdates({ token, apiRoot }) : null;
  const handlerOver = buildBotHandler({ cfg, db, log, now, temporal, deleteMessage: async (chatId, messageId) => updates?.deleteMessage(chatId, messageId) });
  const poller =
    updates && cfg.alerts.bot.updatesMode === 'polling' ? createBotPoller({ polls: createBotPollStore(db), updates, handlerOver, log, timeoutS: 10 }) : null;
  const webhook =
    token && cfg.alerts.bot.webhook
      ? createBotWebhook({ updateLog: createBotWebhookUpdateStore(db), token, apiRoot, settings: cfg.alerts.bot.webhook, handlerOver, log })
      : null;
  return {
    handlerOver,
    poller,
    webhook,
    /** Receives updates until the returned stop (nothing without a token). */
    async start(): Promise<() => Promise<void>> {
      if (webhook) {
        const listening = await webhook.start();
        return listening.stop;
      }
      const stop = poller?.start();
      return async () => stop?.();
    },
  };
}
export type BuiltBot = ReturnType<typeof buildBot>;
