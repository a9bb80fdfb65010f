import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type BotApiMessage = { chatId: number; text: string; messageId: number; body: Record<string, unknown>; at: number };

/**
 * A local Telegram Bot API server over real HTTP: `POST /bot<token>/<method>` with a JSON or form body, answered
 * as api.telegram.org does (`{ ok: true, result }` or `{ ok: false, error_code, description, parameters? }`).
 * Served: `sendMessage`, `getMe`, `getUpdates` (long polling over updates a test pushes with `pushMessage`),
 * `deleteMessage`, and `setWebhook` / `deleteWebhook`: while a webhook is set, getUpdates answers 409 as Telegram
 * does and each pushed update is POSTed to the webhook URL with X-Telegram-Bot-Api-Secret-Token, again until it is
 * answered 2xx (Telegram's redelivery; every attempt is in `webhookCalls`). Chats are known once `startChat` is called (a user who pressed
 * Start); `blockChat` makes the bot blocked by that user; `setFlooding(n)` answers the next n calls 429 with
 * `retry_after`, as Telegram does under flood control. A wrong token gets 401.
 */
export async function startTelegramBotApiServer(token: string) {
  const sent: BotApiMessage[] = [];
  const chats = new Set<number>();
  const blocked = new Set<number>();
  let flooding = 0;
  const floodedAt: number[] = [];
  let nextMessageId = 1;
  // Incoming side: updates a test pushes as users' messages, served by getUpdates with long polling.
  type Update = { update_id: number; message: Record<string, unknown> };
  let updates: Update[] = [];
  let nextUpdateId = 500_000;
  const waiting = new Set<() => void>();
  const deleted: { chatId: number; messageId: number }[] = [];
  // Webhook side: where Telegram POSTs updates while one is set.
  let webhook: { url: string; secret: string | undefined } | null = null;
  const webhookCalls: { updateId: number; status: number }[] = [];
  const pushed: Update[] = [];
  let delivering = Promise.resolve();
  const deliver = (u: Update) => {
    delivering = delivering.then(async () => {
      for (let attempt = 0; attempt < 20; attempt++) {
        const target = webhook;
        if (!target) return;
        const status = await fetch(target.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(target.secret ? { 'x-telegram-bot-api-secret-token': target.secret } : {}) },
          body: JSON.stringify(u),
        }).then(
          (r) => r.status,
          () => 0,
        );
        webhookCalls.push({ updateId: u.update_id, status });
        if (status >= 200 && status < 300) return;
        await new Promise((r) => setTimeout(r, 100));
      }
    });
  };

  const answer = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const fail = (res: http.ServerResponse, code: number, description: string, parameters?: Record<string, unknown>) =>
    answer(res, code, { ok: false, error_code: code, description, ...(parameters ? { parameters } : {}) });

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const m = /^\/bot([^/]+)\/(\w+)$/.exec(req.url ?? '');
      if (!m) return fail(res, 404, 'Not Found');
      if (m[1] !== token) return fail(res, 401, 'Unauthorized');
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown>;
      try {
        body = (req.headers['content-type'] ?? '').includes('application/json') ? JSON.parse(raw || '{}') : Object.fromEntries(new URLSearchParams(raw));
      } catch {
        return fail(res, 400, "Bad Request: can't parse JSON object");
      }
      if (flooding > 0) {
        flooding--;
        floodedAt.push(Date.now());
        return fail(res, 429, 'Too Many Requests: retry after 1', { retry_after: 1 });
      }
      if (m[2] === 'getMe')
        return answer(res, 200, { ok: true, result: { id: 1, is_bot: true, first_name: 'Launchpad alerts', username: 'launchpad_alerts_bot' } });
      if (m[2] === 'setWebhook') {
        webhook = { url: String(body.url), secret: typeof body.secret_token === 'string' ? body.secret_token : undefined };
        return answer(res, 200, { ok: true, result: true, description: 'Webhook was set' });
      }
      if (m[2] === 'deleteWebhook') {
        webhook = null;
        return answer(res, 200, { ok: true, result: true, description: 'Webhook was deleted' });
      }
      if (m[2] === 'getUpdates' && webhook)
        return fail(res, 409, "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first");
      if (m[2] === 'getUpdates') {
        const offset = Number(body.offset ?? 0);
        // An offset confirms every update before it: Telegram forgets them.
        if (offset > 0) updates = updates.filter((u) => u.update_id >= offset);
        const reply = () => answer(res, 200, { ok: true, result: updates.slice(0, Number(body.limit ?? 100)) });
        const timeoutS = Number(body.timeout ?? 0);
        if (updates.length || !(timeoutS > 0)) return reply();
        const wake = () => {
          clearTimeout(timer);
          waiting.delete(wake);
          reply();
        };
        const timer = setTimeout(wake, timeoutS * 1000);
        waiting.add(wake);
        return;
      }
      if (m[2] === 'deleteMessage') {
        deleted.push({ chatId: Number(body.chat_id), messageId: Number(body.message_id) });
        return answer(res, 200, { ok: true, result: true });
      }
      if (m[2] !== 'sendMessage') return fail(res, 404, 'Not Found: method not found');
      const chatId = Number(body.chat_id);
      const text = typeof body.text === 'string' ? body.text : '';
      if (!Number.isSafeInteger(chatId)) return fail(res, 400, 'Bad Request: chat_id is empty');
      if (!text.trim()) return fail(res, 400, 'Bad Request: message text is empty');
      if (text.length > 4096) return fail(res, 400, 'Bad Request: message is too long');
      if (blocked.has(chatId)) return fail(res, 403, 'Forbidden: bot was blocked by the user');
      if (!chats.has(chatId)) return fail(res, 400, 'Bad Request: chat not found');
      const messageId = nextMessageId++;
      sent.push({ chatId, text, messageId, body, at: Date.now() });
      answer(res, 200, { ok: true, result: { message_id: messageId, date: Math.floor(Date.now() / 1000), chat: { id: chatId, type: 'private' }, text } });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    apiRoot: `http://127.0.0.1:${port}`,
    sent,
    /** When each 429 was answered. */
    floodedAt,
    startChat: (chatId: number) => void chats.add(chatId),
    blockChat: (chatId: number) => void blocked.add(chatId),
    setFlooding: (n: number) => void (flooding = n),
    /** A user writes `text` to the bot in a private chat (pressing Start first): an update for getUpdates. */
    pushMessage(chatId: number, text: string): number {
      chats.add(chatId);
      const messageId = nextMessageId++;
      const update: Update = {
        update_id: nextUpdateId++,
        message: {
          message_id: messageId,
          from: { id: chatId, is_bot: false, first_name: 'Trader' },
          chat: { id: chatId, type: 'private', first_name: 'Trader' },
          date: Math.floor(Date.now() / 1000),
          text,
        },
      };
      pushed.push(update);
      if (webhook) deliver(update);
      else updates.push(update);
      for (const wake of [...waiting]) wake();
      return messageId;
    },
    /** Every update pushed, as Telegram sent (or will send) it. */
    pushed,
    /** The webhook set by the bot (setWebhook), or null. */
    webhook: () => webhook,
    /** Every POST of an update to the webhook, with the status it was answered (0: no answer). */
    webhookCalls,
    /** Resolves once every pushed update has been delivered to the webhook (or given up on). */
    webhookSettled: () => delivering,
    /** Messages the bot deleted. */
    deleted,
    close: () => {
      for (const wake of [...waiting]) wake();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}
export type TelegramBotApiFake = Awaited<ReturnType<typeof startTelegramBotApiServer>>;
