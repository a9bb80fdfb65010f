import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export type ChatWalletLink = {
  linkId: string;
  wallet: string;
  status: 'pending' | 'fulfilled' | 'ineligible' | 'expired';
  keyId: number | null;
  balance: number | null;
};

/** Which bot chat asked for which holder signup (`wallet_links` is the access area's projection; this only points at it). */
export function createBotWalletLinkStore(handle: Db) {
  const db = knexOf(handle);
  return {
    async remember(chatId: number, linkId: string, wallet: string, at: Date): Promise<void> {
      await db('bot_wallet_links').insert({ link_id: linkId, chat_id: chatId, wallet, created_at: at }).onConflict('link_id').ignore();
    },

    /** The chat's newest holder signup, as its workflow last recorded it (pending until the workflow's first row). */
    async latest(chatId: number): Promise<ChatWalletLink | undefined> {
      const r = await db('bot_wallet_links as b')
        .leftJoin('wallet_links as l', 'l.link_id', 'b.link_id')
        .where('b.chat_id', chatId)
        .orderBy('b.created_at', 'desc')
        .first('b.link_id', 'b.wallet', 'l.status', 'l.key_id', 'l.balance');
      if (!r) return undefined;
      const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
      return { linkId: r.link_id, wallet: r.wallet, status: r.status ?? 'pending', keyId: num(r.key_id), balance: num(r.balance) };
    },
  };
}
export type BotWalletLinkStore = ReturnType<typeof createBotWalletLinkStore>;
