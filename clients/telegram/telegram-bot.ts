import { Api, GrammyError, HttpError } from 'grammy';

export type BotMessage = { chatId: number; text: string };
export type BotSendResult = { messageId: number };
/** Why Telegram refused a message for good (the user blocked the bot, the chat does not exist): retrying won't help. */
export class BotRecipientRefused extends Error {
  constructor(
    readonly code: number,
    description: string,
  ) {
    super(`Telegram refused the message (${code}): ${description}`);
    this.name = 'BotRecipientRefused';
  }
}
export type MessagingBot = { send(m: BotMessage): Promise<BotSendResult> };

/**
 * The messaging bot's outgoing side over the Telegram Bot API, with grammY's `Api` (HTTPS `POST
 * /bot<token>/sendMessage`, JSON in, `{ ok, result | error_code, description }` out). `apiRoot` is Telegram's
 * public server in production, a self-hosted Bot API server if an operator runs one, or the local test server.
 * Errors come back classified: 400 and 403 mean this recipient will never get it (chat not found, bot blocked:
 * BotRecipientRefused); 401 (bad token), 429 (flood control), 5xx and network failures are thrown as they are, for
 * the caller's retry policy and, in the end, an operator. grammY keeps the token out
 * of its error messages.
 */
export function createTelegramBot(o: { token: string; apiRoot?: string; timeoutS?: number }): MessagingBot {
  const api = new Api(o.token, { apiRoot: o.apiRoot ?? 'https://api.telegram.org', timeoutSeconds: o.timeoutS ?? 15 });
  return {
    async send(m) {
      try {
        // Plain text on purpose: no parse mode, so nothing in the text (memo, key prefix) can break the markup.
        const sent = await api.sendMessage(m.chatId, m.text, { link_preview_options: { is_disabled: true } });
        return { messageId: sent.message_id };
      } catch (e) {
        if (e instanceof GrammyError && (e.error_code === 400 || e.error_code === 403)) throw new BotRecipientRefused(e.error_code, e.description);
        if (e instanceof HttpError) throw new Error(`Telegram Bot API unreachable: ${e.message}`, { cause: e });
        throw e;
      }
    },
  };
}
