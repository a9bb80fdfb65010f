import type { TelegramUpdates } from '../../clients/telegram/telegram-updates';
import type { Knex } from '../../platform/db';
import type { Logger } from '../../platform/logger';
import type { BotHandlerOver } from './build-bot-handler';

/** One poller per deployment: the holder of this transaction lock polls, others wait (Telegram refuses two at once). */
const POLL_LOCK = 7_301_160_002;

/**
 * Long polling: getUpdates from the saved offset, and every update's command handled over the same transaction that
 * saves the offset past it, under a transaction lock so one worker polls at a time. A crash before the commit leaves
 * neither the commands' writes nor the offset (the updates come again and run once); after it, both. What cannot be
 * in the transaction runs around it: deleting a key's message (harmless twice), Temporal starts that read committed
 * rows (deferred until after the commit; billing's outbox sweep covers a crash in between), a holder signup's
 * workflow (its own rows; a rolled-back chat just asks again).
 */
export function createBotPoller(d: {
  db: Knex;
  updates: Pick<TelegramUpdates, 'botId' | 'getUpdates'>;
  handlerOver: BotHandlerOver;
  log: Logger;
  timeoutS: number;
}) {
  async function pollOnce(): Promise<number> {
    const deferred: (() => Promise<void>)[] = [];
    const n = await d.db.transaction(async (trx) => {
      const locked = (await trx.raw('SELECT pg_try_advisory_xact_lock(?) AS ok', [POLL_LOCK])).rows[0].ok;
      if (!locked) return -1;
      const row = await trx('bot_poll_offsets').where({ bot_id: d.updates.botId }).first();
      const updates = await d.updates.getUpdates(row ? Number(row.next_update_id) : 0, d.timeoutS);
      const handler = d.handlerOver(trx, (fn) => deferred.push(fn));
      for (const u of updates) {
        await handler.handle(u);
        await trx.raw(
          'INSERT INTO bot_poll_offsets (bot_id, next_update_id) VALUES (?, ?) ON CONFLICT (bot_id) DO UPDATE SET next_update_id = excluded.next_update_id',
          [d.updates.botId, u.update_id + 1],
        );
      }
      return updates.length;
    });
    for (const fn of deferred) await fn();
    return n;
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
