import { alertsActivities } from '../../../activities/alerts';
import { buildBot } from '../../../bot/build-bot';
import { createBotSender } from '../../../activities/alerts/bot-sender';
import { createApiKeyStore } from '../../../db/access/api-key-store';
import { createSignalStore } from '../../../db/signals/signal-store';
import type { TelegramBotApiFake } from '../../fakes/telegram-bot-api-server';
import { issueTestKey } from '../../support/access-keys';
import { areaContext } from '../../support/area-context';
import { insertTestCross, testDelivery, testMintAddress } from '../../support/composite-fixtures';
import type { createTestDatabase } from '../../support/test-db';
import { useTelegramTestbed } from '../../support/telegram-testbed';
import { testWallet } from '../../support/test-wallet';

/**
 * The bot's commands end to end over the local Telegram Bot API server: users' messages arrive by getUpdates long
 * polling (the production poller), replies go out through the durable send queue in order; linking reads the key,
 * deletes its message and never echoes it; tier limits answer clearly; composite signals reach the chats subscribed
 * to their tier while the key has signal access (a holder's 500k, re-read at each signal).
 */
const TOKEN = '424242:bot-commands-token-abcdefghijkl';
let t: Awaited<ReturnType<typeof createTestDatabase>>;
let fake: TelegramBotApiFake;

useTelegramTestbed(TOKEN, (bed) => ({ t, fake } = bed));

describe('the messaging bot', () => {
  it('answers every command, in order, and relays signals by tier and access', async () => {
    const env = { TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_API_ROOT: fake.apiRoot, BOT_SEND_PER_CHAT_INTERVAL_MS: '0', PUBLIC_BASE_URL: 'https://lp.example' };
    const d = alertsActivities.deps(areaContext(t.db, { env }));
    const bot = buildBot(areaContext(t.db, { env }));
    const sender = createBotSender(d);
    const poll = async () => {
      while ((await bot.poller!.pollOnce()) > 0);
    };
    const free = await issueTestKey(t.db, 'free');
    const CHAT = 501;
    const mints = Array.from({ length: 6 }, () => testMintAddress());
    await sender.drainBotSends({ maxMs: 50 }); // starts the signal relay's cursor at the newest signal

    const script: [string, RegExp][] = [
      ['/start', /^Welcome\. Link this chat/],
      ['/alert grad_prob 70', /^Link this chat first/],
      ['/link lp_live_nope_nope', /^That key is not valid/],
      [`/link ${free.plaintext}`, new RegExp(`^Linked to key ${free.prefix}… \\(free\\)\\. I deleted your message`)],
      ['/alert grad_prob 70', /^Rule #\d+ added: graduation probability ≥ 70%\.$/],
      ['/alert vsol_burst 5', /one basic rule/],
      ['/alert smart_in 2', /^Rule #\d+ added: ≥ 2 smart wallets/],
      ['/alert runner_5x 30', /free plan allows 2 alert rules/],
      ['/alert moon 1', /^usage: \/alert/],
      ['/alert grad_prob 170', /percentage between 1 and 100/],
      ['/alerts', /^#\d+ grad_prob: .*\n#\d+ smart_in: /],
      ['/remove 999999', /^You have no rule #999999/],
      ...mints.slice(0, 5).map((m): [string, RegExp] => [`/watch ${m}`, /^Watching /]),
      [`/watch ${mints[5]}`, /watchlist holds 5 mints/],
      [`/unwatch ${mints[0]}`, /^Stopped watching/],
      ['/watchlist', new RegExp(`^${mints[1]}\n`)],
      ['/tier', /^Plan: free\nAlert rules: 2 of 2 \(1 basic \+ 1 premium sample a day\)\nWatchlist: 4 of 5\nHolder access: none\nSignals: off$/],
      ['/signals ACT', /^Composite signals need Builder/],
      [`/probe ${mints[1]}`, new RegExp(`^No score for ${mints[1]}.*\nprobe: https://lp\\.example/api/v1/probe/${mints[1]}$`, 's')],
      ['/upgrade', /^Plan payments are not configured on this deployment/],
      ['/upgrade gold', /^usage: \/upgrade/],
      ['/link wallet abc', /^That is not a wallet address/],
      [`/link wallet ${testWallet().address}`, /^Linking a holder wallet is not available right now/],
      ['/sign abc', /^usage: \/sign/],
      ['/help', /^Launchpad alerts\. Commands:/],
      ['hello', /^Send a command/],
    ];
    const linkMessageId = { id: 0 };
    for (const [text] of script) {
      const id = fake.pushMessage(CHAT, text);
      if (text.startsWith(`/link ${free.plaintext}`)) linkMessageId.id = id;
    }
    await poll();
    await sender.drainBotSends({ maxMs: 3000 });
    const replies = fake.sent.filter((m) => m.chatId === CHAT).map((m) => m.text);
    expect(replies.length).toBe(script.length);
    script.forEach(([cmd, re], i) => expect({ cmd, reply: replies[i] }).toEqual({ cmd, reply: expect.stringMatching(re) }));
    // Every /link message is deleted, the valid key's among them.
    expect(fake.deleted).toContainEqual({ chatId: CHAT, messageId: linkMessageId.id });
    expect(fake.deleted.length).toBe(2);
    expect(JSON.stringify(fake.sent)).not.toContain(free.plaintext);
    expect(JSON.stringify(await t.db('bot_chats').select())).not.toContain(free.plaintext);

    // Holding 500k holder tokens opens the signals; an ACT signal arrives, a WATCH one (not subscribed) does not.
    await createApiKeyStore(t.db).linkWallet(free.id, 'So11111111111111111111111111111111111111112', 600_000);
    fake.pushMessage(CHAT, '/signals ACT');
    await poll();
    const signals = createSignalStore(t.db);
    const deliver = async (gp60: number) => {
      const x = await insertTestCross(t.db, { crossedAtMs: Date.now() - 30_000 });
      await signals.deliver(testDelivery(x, gp60, Date.now()));
      return x.mint;
    };
    const act = await deliver(0.4);
    const watch = await deliver(0.15);
    await sender.drainBotSends({ maxMs: 2500 });
    const after = fake.sent
      .filter((m) => m.chatId === CHAT)
      .map((m) => m.text)
      .slice(script.length);
    expect(after[0]).toBe('You will receive ACT signals.');
    expect(after.slice(1)).toEqual([expect.stringMatching(new RegExp(`^📡 ACT signal: .*\nmint ${act}\n`))]);
    expect(after.join()).not.toContain(watch);
    // Sold: access reverts with the holder re-check, and the next ACT signal is not sent.
    await createApiKeyStore(t.db).creditHolderBalance(free.id, 'So11111111111111111111111111111111111111112', 0);
    const late = await deliver(0.5);
    await sender.drainBotSends({ maxMs: 1500 });
    expect(fake.sent.some((m) => m.text.includes(late))).toBe(false);
    // Polling again finds nothing new: every update was confirmed by the saved offset.
    expect(await bot.poller!.pollOnce()).toBe(0);
  }, 120_000);
});
