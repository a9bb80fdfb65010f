import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Bot, webhookCallback } from 'grammy';
import type { BotUpdate } from '../clients/telegram/telegram-update';
import type { BotWebhookUpdateStore } from '../db/alerts/bot-webhook-update-store';
import type { Logger } from '../platform/logger';
import type { BotHandlerOver } from './build-bot-handler';

const PRUNE_EVERY = 500;

export type BotWebhookSettings = { url: string; secret: string; host: string; port: number };

/**
 * Webhook mode (production behind a TLS proxy): Telegram POSTs each update to `url`; the bot process listens on
 * host:port and answers through grammY's `webhookCallback`, which refuses (401) a request whose
 * X-Telegram-Bot-Api-Secret-Token is not `secret`, compared in constant time. Each update's command runs in one
 * transaction with the record of its update id: Telegram delivers an update again when our answer is lost or not
 * 2xx, and the second delivery then runs nothing (the reply's own dedupe key keeps it single too). A failure answers
 * 500 and rolls everything back, so Telegram's retry runs it afresh. On start the bot registers the webhook
 * (setWebhook with the secret), which also makes Telegram refuse getUpdates: long polling and a webhook never both run.
 */
export function createBotWebhook(d: {
  updateLog: BotWebhookUpdateStore;
  token: string;
  apiRoot: string;
  settings: BotWebhookSettings;
  handlerOver: BotHandlerOver;
  log: Logger;
}) {
  const botId = Number(d.token.split(':')[0]);
  const bot = new Bot(d.token, { client: { apiRoot: d.apiRoot } });
  let updates = 0;
  bot.use(async (ctx) => {
    // Telegram keeps an undelivered update for 24 hours, so an update id older than that never comes again: the
    // records are pruned at the first update after start and every PRUNE_EVERY after, off the command's path.
    if (updates++ % PRUNE_EVERY === 0)
      await d.updateLog.pruneOld(botId).catch((err: unknown) => d.log.warn({ err: String(err) }, 'pruning old bot update records failed; tried again later'));
    const deferred: (() => Promise<void>)[] = [];
    await d.updateLog.onceWithin(botId, ctx.update.update_id, (trx) => d.handlerOver(trx, (fn) => deferred.push(fn)).handle(ctx.update as BotUpdate));
    for (const fn of deferred) await fn();
  });
  const callback = webhookCallback(bot, 'http', { secretToken: d.settings.secret, onTimeout: 'throw', timeoutMilliseconds: 50_000 });
  const path = new URL(d.settings.url).pathname;

  return {
    /** Listens, then registers the webhook with Telegram; returns the bound port and the stop. */
    async start(): Promise<{ port: number; stop: () => Promise<void> }> {
      const server = http.createServer((req, res) => {
        if (req.method !== 'POST' || (req.url ?? '').split('?')[0] !== path) {
          res.writeHead(404).end();
          return;
        }
        callback(req, res).catch((err: unknown) => {
          d.log.warn({ err: String(err) }, 'bot webhook update failed; Telegram delivers it again');
          if (!res.headersSent) res.writeHead(500).end();
        });
      });
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(d.settings.port, d.settings.host, () => resolve());
      });
      await bot.api.setWebhook(d.settings.url, { secret_token: d.settings.secret, allowed_updates: ['message'] });
      return {
        port: (server.address() as AddressInfo).port,
        stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
      };
    },
  };
}
export type BotWebhook = ReturnType<typeof createBotWebhook>;
