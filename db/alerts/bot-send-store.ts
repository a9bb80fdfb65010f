import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export type PendingSend = { id: number; chatId: number; text: string };

/**
 * The bot's durable send queue (`bot_sends`). Rows are written with their cause and sent in id order per chat;
 * a row leaves `pending` once: `sent` with Telegram's message id, or `refused` (the user blocked the bot).
 */
export function createBotSendStore(handle: Db) {
  const db = knexOf(handle);
  return {
    /** Queues one message; the same dedupe key again is a no-op. */
    async enqueue(chatId: number, dedupeKey: string, text: string, at: Date): Promise<void> {
      await db('bot_sends').insert({ chat_id: chatId, dedupe_key: dedupeKey, text, created_at: at }).onConflict('dedupe_key').ignore();
    },

    /** The head of each chat's queue (its oldest pending row), oldest heads first, skipping chats in `busy`. */
    async heads(limit: number, busy: readonly number[]): Promise<PendingSend[]> {
      const rows = await db.raw(
        `SELECT id, chat_id, text FROM (
           SELECT DISTINCT ON (chat_id) id, chat_id, text FROM bot_sends
            WHERE state = 'pending' AND NOT (chat_id = ANY(?::bigint[]))
            ORDER BY chat_id, id) h
          ORDER BY id LIMIT ?`,
        [busy as number[], limit],
      );
      return rows.rows.map((r: { id: string; chat_id: string; text: string }) => ({ id: Number(r.id), chatId: Number(r.chat_id), text: r.text }));
    },

    async markSent(id: number, messageId: number, at: Date): Promise<void> {
      await db('bot_sends')
        .where({ id, state: 'pending' })
        .update({ state: 'sent', sent_at: at, message_id: messageId, attempts: db.raw('attempts + 1') });
    },

    async markAttemptFailed(id: number, error: string): Promise<void> {
      await db('bot_sends')
        .where({ id })
        .update({ attempts: db.raw('attempts + 1'), error: error.slice(0, 500) });
    },

    /** When each chat last got a message (a restarted sender keeps the per-chat pace). */
    async lastSentAt(since: Date): Promise<Map<number, number>> {
      const rows = await db('bot_sends')
        .where('state', 'sent')
        .where('sent_at', '>=', since)
        .groupBy('chat_id')
        .select('chat_id', db.raw('max(sent_at) AS at'));
      return new Map(rows.map((r) => [Number(r.chat_id), new Date(r.at).getTime()]));
    },

    /** Send times of the last second, for the overall rate of a restarted sender. */
    async sentSince(since: Date): Promise<number[]> {
      const rows = await db('bot_sends').where('state', 'sent').where('sent_at', '>=', since).select('sent_at');
      return rows.map((r) => r.sent_at.getTime());
    },

    async pendingCount(): Promise<number> {
      const r = await db('bot_sends').where({ state: 'pending' }).count<{ n: string }[]>('* as n');
      return Number(r[0]!.n);
    },
  };
}
export type BotSendStore = ReturnType<typeof createBotSendStore>;
