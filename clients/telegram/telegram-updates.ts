import { Api } from 'grammy';
import type { BotUpdate } from './telegram-update';

/**
 * The messaging bot's incoming side over the Telegram Bot API with grammY's `Api`: `getUpdates` long polling
 * (the default; a webhook replaces it in production behind TLS) and `deleteMessage` (the message that carried a key).
 */
export function createTelegramUpdates(o: { token: string; apiRoot?: string }) {
  const api = new Api(o.token, { apiRoot: o.apiRoot ?? 'https://api.telegram.org' });
  return {
    botId: Number(o.token.split(':')[0]),
    async getUpdates(offset: number, timeoutS: number): Promise<BotUpdate[]> {
      return (await api.getUpdates({ offset, timeout: timeoutS, allowed_updates: ['message'] })) as BotUpdate[];
    },
    async deleteMessage(chatId: number, messageId: number): Promise<void> {
      await api.deleteMessage(chatId, messageId);
    },
  };
}
export type TelegramUpdates = ReturnType<typeof createTelegramUpdates>;
