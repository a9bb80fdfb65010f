import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type BotApiMessage = { chatId: number; text: string; messageId: number; body: Record<string, unknown>; at: number };

/**
 * A local Telegram Bot API server over real HTTP: `POST /bot<token>/<method>` with a JSON or form body, answered
 * as api.telegram.org does (`{ ok: true, result }` or `{ ok: false, error_code, description, parameters? }`).
 * Only `sendMessage` and `getMe` are served. Chats are known once `startChat` is called (a user who pressed
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
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
export type TelegramBotApiFake = Awaited<ReturnType<typeof startTelegramBotApiServer>>;
