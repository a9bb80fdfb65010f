import type { Db } from '../db-handle';
import { asDb, knexOf } from '../knex-handle';

/** One poller per deployment: the holder of this transaction lock polls, others wait (Telegram refuses two at once). */
const POLL_LOCK = 7_301_160_002;

/** One poll's transaction: the offset saved so far and the save of the next one, committed with the commands. */
export type PollTransaction = { trx: Db; offset: number; advance(nextUpdateId: number): Promise<void> };

/** The long poller's offset per bot, read and advanced inside the transaction that runs the updates' commands. */
export function createBotPollStore(handle: Db) {
  const db = knexOf(handle);
  return {
    /** Runs `fn` in one transaction under the poll lock; null at once, running nothing, while another poller holds it. */
    async underPollLock<T>(botId: number, fn: (poll: PollTransaction) => Promise<T>): Promise<T | null> {
      return db.transaction(async (trx) => {
        const locked = (await trx.raw('SELECT pg_try_advisory_xact_lock(?) AS ok', [POLL_LOCK])).rows[0].ok;
        if (!locked) return null;
        const row = await trx('bot_poll_offsets').where({ bot_id: botId }).first();
        return fn({
          trx: asDb(trx),
          offset: row ? Number(row.next_update_id) : 0,
          advance: async (next) => {
            await trx.raw(
              'INSERT INTO bot_poll_offsets (bot_id, next_update_id) VALUES (?, ?) ON CONFLICT (bot_id) DO UPDATE SET next_update_id = excluded.next_update_id',
              [botId, next],
            );
          },
        });
      });
    },
  };
}
export type BotPollStore = ReturnType<typeof createBotPollStore>;
