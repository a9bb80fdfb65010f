import type { Db } from '../db-handle';
import { asDb, knexOf } from '../knex-handle';

/** The update ids a webhook has run, so a delivery Telegram repeats runs nothing the second time. */
export function createBotWebhookUpdateStore(handle: Db) {
  const db = knexOf(handle);
  return {
    /**
     * Runs `fn` in one transaction with the record of `updateId`, or skips it (false) when the id is already
     * recorded; a failure in `fn` rolls the record back too, so a redelivery runs it afresh.
     */
    async onceWithin(botId: number, updateId: number, fn: (trx: Db) => Promise<void>): Promise<boolean> {
      return db.transaction(async (trx) => {
        const fresh = await trx.raw(
          'INSERT INTO bot_webhook_updates (bot_id, update_id, received_at) VALUES (?, ?, now()) ON CONFLICT DO NOTHING RETURNING update_id',
          [botId, updateId],
        );
        if (fresh.rows.length === 0) return false;
        await fn(asDb(trx));
        return true;
      });
    },
    /** Forgets records older than Telegram keeps an undelivered update (24 hours), with an hour to spare. */
    async pruneOld(botId: number): Promise<void> {
      await db.raw(`DELETE FROM bot_webhook_updates WHERE bot_id = ? AND received_at < now() - interval '25 hours'`, [botId]);
    },
  };
}
export type BotWebhookUpdateStore = ReturnType<typeof createBotWebhookUpdateStore>;
