import type { Tier as SignalTier } from '../../domain/signals/tier-rules';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export type BotChat = { chatId: number; ownerKeyId: number | null; blockedAt: Date | null; signalTiers: SignalTier[] };

const toChat = (r: { chat_id: string; owner_key_id: string | null; blocked_at: Date | null; signal_tiers: string[] }): BotChat => ({
  chatId: Number(r.chat_id),
  ownerKeyId: r.owner_key_id === null ? null : Number(r.owner_key_id),
  blockedAt: r.blocked_at,
  signalTiers: r.signal_tiers as SignalTier[],
});

/** The bot's private chats: which API key each is linked to (the key's id, never the key), blocks, signal tiers. */
export function createBotChatStore(handle: Db) {
  const db = knexOf(handle);
  return {
    async get(chatId: number): Promise<BotChat | null> {
      const r = await db('bot_chats').where({ chat_id: chatId }).first();
      return r ? toChat(r) : null;
    },

    /** A chat that talks to the bot is known (and unblocked: writing to the bot again means it was unblocked). */
    async seen(chatId: number, at: Date): Promise<void> {
      await db.raw('INSERT INTO bot_chats (chat_id, created_at) VALUES (?, ?) ON CONFLICT (chat_id) DO UPDATE SET blocked_at = NULL', [chatId, at]);
    },

    async link(chatId: number, ownerKeyId: number, at: Date): Promise<void> {
      await db.raw(
        `INSERT INTO bot_chats (chat_id, owner_key_id, linked_at, created_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (chat_id) DO UPDATE SET owner_key_id = excluded.owner_key_id, linked_at = excluded.linked_at, blocked_at = NULL`,
        [chatId, ownerKeyId, at, at],
      );
    },

    /** The user blocked the bot: recorded, and the chat's queued messages are refused rather than retried. */
    async markBlocked(chatId: number, at: Date, reason: string): Promise<void> {
      await db.transaction(async (trx) => {
        await trx('bot_chats').where({ chat_id: chatId }).update({ blocked_at: at });
        await trx('bot_sends')
          .where({ chat_id: chatId, state: 'pending' })
          .update({ state: 'refused', error: reason.slice(0, 500) });
      });
    },

    async setSignalTiers(chatId: number, tiers: readonly SignalTier[]): Promise<void> {
      await db('bot_chats')
        .where({ chat_id: chatId })
        .update({ signal_tiers: db.raw('?::text[]', [tiers as string[]]) });
    },
  };
}
export type BotChatStore = ReturnType<typeof createBotChatStore>;
