import type { TelegramUpdates } from '../clients/telegram/telegram-updates';
import type { BotPollStore } from '../db/alerts/bot-poll-store';
import type { Logger } from '../platform/logger';
import type { BotHandlerOver } from './build-bot-handler';

/**
 * Long polling: getUpdates from the saved offset, and every update's command handled over the same transaction that
 * saves the offset past it, under a transaction lock so one bot process polls at a time (db/alerts/bot-poll-store.ts). A crash before the commit leaves
 * neither the commands' writes nor the offset (the updates come again and run once); after it, both. What cannot be
 * in the transaction runs around it: deleting a key's message (harmless twice), Temporal starts that read committed
 * rows (deferred until after the commit; billing's outbox sweep covers a crash in between), a holder signup's
 * workflow (its own rows; a rolled-back chat just asks again).
 */
export function createBotPoller(d: {
  polls: BotPollStore;
  updates: Pick<TelegramUpdates, 'botId' | 'getUpdates'>;
  handlerOver: BotHandlerOver;
  log: Logger;
  timeoutS: number;
}) {
  async function pollOnce(): Promise<number> {
    const deferred: (() => Promise<void>)[] = [];
    const n = await d.polls.underPollLock(d.updates.botId, async ({ trx, offset, advance }) => {
      const updates = await d.updates.getUpdates(offset, d.timeoutS);
      const handler = d.handlerOver(trx, (fn) => deferred.push(fn));
      for (const u of updates) {
        await handler.handle(u);
        await advance(u.update_id + 1);
      }
      return updates.length;
    });
    for (const fn of deferred) await fn();
    return n ?? -1;
  }
  return {
    pollOnce,
    /** Polls until stopped; failures are logged and retried after a pause. */
    start(): () => void {
      let stopped = false;
      void (async () => {
        while (!stopped) {
          try {
            if ((await pollOnce()) < 0) await new Promise((r) => setTimeout(r, 5000));
          } catch (err) {
            d.log.warn({ err: String(err) }, 'bot polling failed');
            await new Promise((r) => setTimeout(r, 2000));
          }
        }
      })();
      return () => {
        stopped = true;
      };
    },
  };
}
