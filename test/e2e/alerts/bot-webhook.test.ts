import net from 'node:net';
import { alertsActivities } from '../../../activities/alerts';
import { buildBot } from '../../../bot/build-bot';
import { createBotSender } from '../../../activities/alerts/bot-sender';
import { createTelegramUpdates } from '../../../clients/telegram/telegram-updates';
import { loadConfig } from '../../../platform/config';
import type { TelegramBotApiFake } from '../../fakes/telegram-bot-api-server';
import { issueTestKey } from '../../support/access-keys';
import { areaContext } from '../../support/area-context';
import type { createTestDatabase } from '../../support/test-db';
import { useTelegramTestbed } from '../../support/telegram-testbed';

/**
 * Webhook mode: the worker registers its webhook with the secret, and the local Bot API server POSTs users' updates
 * to it over a real socket. Commands run and are answered through the durable queue; a POST without the secret or
 * with a wrong one is refused (401) and runs nothing; an update delivered again (Telegram's redelivery after a lost
 * answer) runs its command once; getUpdates is refused while the webhook is set.
 */
const TOKEN = '474747:bot-webhook-token-abcdefghijkl';
const SECRET = 'webhook-secret-0123456789_abcdef';
const CHAT = 9201;
let t: Awaited<ReturnType<typeof createTestDatabase>>;
let fake: TelegramBotApiFake;

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

useTelegramTestbed(TOKEN, (bed) => ({ t, fake } = bed));

describe('the bot in webhook mode', () => {
  it('refuses the configuration without its address or secret', () => {
    expect(() => loadConfig({ BOT_UPDATES_MODE: 'webhook', BOT_WEBHOOK_SECRET: SECRET })).toThrow(/BOT_WEBHOOK_URL/);
    expect(() => loadConfig({ BOT_UPDATES_MODE: 'webhook', BOT_WEBHOOK_URL: 'https://bot.example/hook' })).toThrow(/BOT_WEBHOOK_SECRET/);
    expect(() => loadConfig({ BOT_UPDATES_MODE: 'webhook', BOT_WEBHOOK_URL: 'https://bot.example/hook', BOT_WEBHOOK_SECRET: 'short' })).toThrow(
      /BOT_WEBHOOK_SECRET/,
    );
  });

  it('runs each update Telegram POSTs once, only with the secret', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/telegram/hook`;
    const env = {
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_API_ROOT: fake.apiRoot,
      BOT_SEND_PER_CHAT_INTERVAL_MS: '0',
      BOT_UPDATES_MODE: 'webhook',
      BOT_WEBHOOK_URL: url,
      BOT_WEBHOOK_SECRET: SECRET,
      BOT_WEBHOOK_PORT: String(port),
    };
    const d = alertsActivities.deps(areaContext(t.db, { env }));
    const bot = buildBot(areaContext(t.db, { env }));
    expect(bot.poller).toBeNull();
    const listening = await bot.webhook!.start();
    try {
      expect(fake.webhook()).toEqual({ url, secret: SECRET });
      await expect(createTelegramUpdates({ token: TOKEN, apiRoot: fake.apiRoot }).getUpdates(0, 0)).rejects.toThrow(/409|Conflict/);

      // A record of an update from two days ago (Telegram no longer holds it) is pruned when updates come.
      await t.db('bot_webhook_updates').insert({ bot_id: Number(TOKEN.split(':')[0]), update_id: 1, received_at: new Date(Date.now() - 2 * 86_400_000) });
      const pro = await issueTestKey(t.db, 'pro');
      fake.pushMessage(CHAT, `/link ${pro.plaintext}`);
      fake.pushMessage(CHAT, '/alert grad_prob 70');
      await fake.webhookSettled();
      expect(fake.webhookCalls.map((c) => c.status)).toEqual([200, 200]);

      // Someone else POSTs an update: without the secret, or with a wrong one of the same length, nothing runs.
      const forged = { ...fake.pushed[1]!, update_id: fake.pushed[1]!.update_id + 1000, message: { ...fake.pushed[1]!.message, text: '/alert vsol_burst 5' } };
      const post = (headers: Record<string, string>, body: unknown) =>
        fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      expect((await post({}, forged)).status).toBe(401);
      expect((await post({ 'x-telegram-bot-api-secret-token': SECRET.replace(/.$/, 'X') }, forged)).status).toBe(401);
      // Telegram delivers the second update again (our answer was lost): it is acknowledged and runs nothing.
      expect((await post({ 'x-telegram-bot-api-secret-token': SECRET }, fake.pushed[1])).status).toBe(200);

      expect((await t.db('bot_webhook_updates').orderBy('update_id')).map((r) => Number(r.update_id))).toEqual(fake.pushed.map((u) => u.update_id));
      await createBotSender(d).drainBotSends({ maxMs: 500 });
      const rules = await t.db('alert_rules').where({ owner_key_id: pro.id });
      expect(rules.map((r) => r.kind)).toEqual(['grad_prob']);
      expect(fake.sent.filter((m) => m.chatId === CHAT).map((m) => m.text)).toEqual([
        expect.stringMatching(/^Linked to key /),
        `Rule #${rules[0].id} added: graduation probability ≥ 70%.`,
      ]);
    } finally {
      await listening.stop();
    }
  }, 60_000);
});
