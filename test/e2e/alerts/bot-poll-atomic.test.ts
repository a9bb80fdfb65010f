import { alertsActivities } from '../../../activities/alerts';
import { createBotPoller } from '../../../bot/bot-poller';
import { buildBot } from '../../../bot/build-bot';
import { createBotSender } from '../../../activities/alerts/bot-sender';
import { createBotPollStore } from '../../../db/alerts/bot-poll-store';
import { createTelegramUpdates } from '../../../clients/telegram/telegram-updates';
import { createLogger } from '../../../platform/logger';
import type { TelegramBotApiFake } from '../../fakes/telegram-bot-api-server';
import { issueTestKey } from '../../support/access-keys';
import { areaContext } from '../../support/area-context';
import type { createTestDatabase } from '../../support/test-db';
import { useTelegramTestbed } from '../../support/telegram-testbed';

/**
 * Long polling commits each command with the update offset past it: a worker that dies in the middle of a batch
 * (here: after the second command's writes, before the commit) leaves neither the commands' writes nor the offset,
 * and the next poll runs every command of the batch exactly once: no rule added twice, no reply sent twice, none lost.
 */
const TOKEN = '464646:bot-atomic-token-abcdefghijkl';
const CHAT = 9101;
let t: Awaited<ReturnType<typeof createTestDatabase>>;
let fake: TelegramBotApiFake;

useTelegramTestbed(TOKEN, (bed) => ({ t, fake } = bed));

describe('the bot long polling', () => {
  it('never runs a command twice or skips one across a crash mid-batch', async () => {
    const env = { TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_API_ROOT: fake.apiRoot, BOT_SEND_PER_CHAT_INTERVAL_MS: '0' };
    const d = alertsActivities.deps(areaContext(t.db, { env }));
    const bot = buildBot(areaContext(t.db, { env }));
    const pro = await issueTestKey(t.db, 'pro');
    const script = [`/link ${pro.plaintext}`, '/alert grad_prob 70', '/alert vsol_burst 5', '/alerts'];
    const ids = script.map((text) => fake.pushMessage(CHAT, text));
    expect(ids.length).toBe(4);

    // A bot process that dies once the second command (the first rule) is written, before its batch commits.
    let crashAfter = 2;
    const crashing = createBotPoller({
      polls: createBotPollStore(t.db),
      updates: createTelegramUpdates({ token: TOKEN, apiRoot: fake.apiRoot }),
      handlerOver: (h, defer) => {
        const real = bot.handlerOver(h, defer);
        return {
          async handle(u) {
            await real.handle(u);
            if (--crashAfter === 0) throw new Error('worker killed');
          },
        };
      },
      log: createLogger('silent', 'bot-test'),
      timeoutS: 0,
    });
    await expect(crashing.pollOnce()).rejects.toThrow('worker killed');
    expect(await t.db('alert_rules').where({ owner_key_id: pro.id })).toEqual([]);
    expect(await t.db('bot_chats').where({ chat_id: CHAT })).toEqual([]);
    expect(await t.db('bot_sends')).toEqual([]);
    expect(await t.db('bot_poll_offsets')).toEqual([]);

    // The production poller takes the same updates again and runs each once.
    expect(await bot.poller!.pollOnce()).toBe(4);
    await createBotSender(d).drainBotSends({ maxMs: 500 });
    const rules = await t.db('alert_rules').where({ owner_key_id: pro.id }).orderBy('id');
    expect(rules.map((r) => r.kind)).toEqual(['grad_prob', 'vsol_burst']);
    const replies = fake.sent.filter((m) => m.chatId === CHAT).map((m) => m.text);
    expect(replies).toEqual([
      expect.stringMatching(/^Linked to key /),
      `Rule #${rules[0].id} added: graduation probability ≥ 70%.`,
      `Rule #${rules[1].id} added: ≥ 5 SOL added within 60 s.`,
      `#${rules[0].id} grad_prob: graduation probability ≥ 70%\n#${rules[1].id} vsol_burst: ≥ 5 SOL added within 60 s`,
    ]);
    expect(Number((await t.db('bot_poll_offsets').first()).next_update_id)).toBeGreaterThan(0);
  }, 60_000);
});
