import { startDaemon } from '../../../scripts/lib/daemon-process';
import type { TelegramBotApiFake } from '../../fakes/telegram-bot-api-server';
import type { createTestDatabase } from '../../support/test-db';
import { useTelegramTestbed } from '../../support/telegram-testbed';
import { readTestEnv } from '../../support/test-env';

/**
 * The bot as the process production runs (bot/main-bot.ts, as `npm start` and compose start it): it long-polls
 * the local Telegram Bot API server, answers a command into the durable send queue (the worker's sender delivers
 * it), saves its offset, and stops cleanly on SIGTERM.
 */
const TOKEN = '484848:bot-process-token-abcdefghijkl';
const CHAT = 9301;
let t: Awaited<ReturnType<typeof createTestDatabase>>;
let fake: TelegramBotApiFake;

useTelegramTestbed(TOKEN, (bed) => ({ t, fake } = bed));

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('the bot process', () => {
  it('receives a command by long polling, queues its reply, and stops on SIGTERM', async () => {
    const bot = startDaemon('bot/main-bot.ts', {
      DATABASE_URL: t.url,
      TEMPORAL_ADDRESS: readTestEnv().temporalAddress,
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_API_ROOT: fake.apiRoot,
    });
    try {
      fake.pushMessage(CHAT, '/start');
      const reply = await until('the queued reply', async () => (await t.db('bot_sends').where({ chat_id: CHAT }).first()) ?? undefined);
      expect(reply.text).toMatch(/^Welcome\. Link this chat/);
      const offset = await until('the saved offset', async () => (await t.db('bot_poll_offsets').first()) ?? undefined);
      expect(Number(offset.next_update_id)).toBe(fake.pushed[0]!.update_id + 1);

      const exited = new Promise<number | null>((r) => bot.child.once('exit', (code) => r(code)));
      bot.child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      await bot.kill();
    }
  }, 120_000);
});
