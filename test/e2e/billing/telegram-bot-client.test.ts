import { BotRecipientRefused, createTelegramBot } from '../../../clients/telegram/telegram-bot';
import { startTelegramBotApiServer, type TelegramBotApiFake } from '../../fakes/telegram-bot-api-server';

const TOKEN = '42:client-test-token-not-a-secret';
let api: TelegramBotApiFake;

beforeAll(async () => {
  api = await startTelegramBotApiServer(TOKEN);
});
afterAll(() => api.close());

describe('messaging bot client (grammY) against a local Telegram Bot API server', () => {
  it('sends a plain-text message to a user who started the bot and returns its message id', async () => {
    api.startChat(1001);
    const bot = createTelegramBot({ token: TOKEN, apiRoot: api.apiRoot });
    const text = 'Your pro plan ends soon. <b>not markup</b> & memo lp_abc_123';
    const r = await bot.send({ chatId: 1001, text });
    const sent = api.sent.at(-1)!;
    expect(sent).toMatchObject({ chatId: 1001, text, messageId: r.messageId });
    // No parse mode: the text arrives as written, whatever characters it holds.
    expect(sent.body.parse_mode).toBeUndefined();
  });

  it('classifies a chat that does not exist and a user who blocked the bot as refused for good', async () => {
    const bot = createTelegramBot({ token: TOKEN, apiRoot: api.apiRoot });
    await expect(bot.send({ chatId: 2002, text: 'hi' })).rejects.toMatchObject({ name: 'BotRecipientRefused', code: 400 });
    api.startChat(3003);
    api.blockChat(3003);
    const err = await bot.send({ chatId: 3003, text: 'hi' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BotRecipientRefused);
    expect((err as Error).message).toContain('Forbidden: bot was blocked by the user');
  });

  it('leaves flood control, a wrong token and an unreachable server to the retry policy, and never shows the token', async () => {
    api.startChat(4004);
    api.setFlooding(1);
    const bot = createTelegramBot({ token: TOKEN, apiRoot: api.apiRoot });
    const flood = await bot.send({ chatId: 4004, text: 'hi' }).catch((e: unknown) => e);
    expect(flood).not.toBeInstanceOf(BotRecipientRefused);
    expect((flood as Error).message).toContain('Too Many Requests');
    await expect(bot.send({ chatId: 4004, text: 'hi again' })).resolves.toHaveProperty('messageId');

    const wrongToken = createTelegramBot({ token: '42:a-different-token-value-xx', apiRoot: api.apiRoot });
    const unauthorized = await wrongToken.send({ chatId: 4004, text: 'hi' }).catch((e: unknown) => e);
    expect(unauthorized).not.toBeInstanceOf(BotRecipientRefused);
    expect((unauthorized as Error).message).not.toContain('a-different-token-value-xx');

    const down = createTelegramBot({ token: TOKEN, apiRoot: 'http://127.0.0.1:9', timeoutS: 2 });
    const unreachable = await down.send({ chatId: 4004, text: 'hi' }).catch((e: unknown) => e);
    expect((unreachable as Error).message).toMatch(/unreachable/);
    expect((unreachable as Error).message).not.toContain('client-test-token');
  });
});
