import { accuracyActivities } from '../../../activities/accuracy';
import { alertsActivities } from '../../../activities/alerts';
import { buildBot } from '../../../bot/build-bot';
import { createBotSender } from '../../../activities/alerts/bot-sender';
import { createSignalStore } from '../../../db/signals/signal-store';
import { loadConfig } from '../../../platform/config';
import type { TelegramBotApiFake } from '../../fakes/telegram-bot-api-server';
import { issueTestKey } from '../../support/access-keys';
import { areaContext } from '../../support/area-context';
import { insertTestCross, testDelivery } from '../../support/composite-fixtures';
import { insertGateFires, logSurvival } from '../../support/gate-validation-fixtures';
import type { createTestDatabase } from '../../support/test-db';
import { useTelegramTestbed } from '../../support/telegram-testbed';

/**
 * The survival gate's hard suppression on the bot: while the newest gate run validates, an ACT signal whose mint
 * logged a survival score below 0.5 by its delivery reaches no chat, while one above it, and one with no score
 * logged (the gate says nothing about those), are sent; before the gate validates the low one is sent too.
 */
const TOKEN = '424243:gate-suppression-token-abcdefgh';
const H = 3_600_000;
let t: Awaited<ReturnType<typeof createTestDatabase>>;
let fake: TelegramBotApiFake;

useTelegramTestbed(TOKEN, (bed) => ({ t, fake } = bed));

describe('the survival gate on the signal relay', () => {
  it('withholds the low-survival signals from the bot while the gate validates, and only then', async () => {
    const env = { TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_API_ROOT: fake.apiRoot, BOT_SEND_PER_CHAT_INTERVAL_MS: '0' };
    const d = alertsActivities.deps(areaContext(t.db, { env }));
    const bot = buildBot(areaContext(t.db, { env }));
    const sender = createBotSender(d);
    const pro = await issueTestKey(t.db, 'pro');
    const CHAT = 777;
    await sender.drainBotSends({ maxMs: 50 }); // starts the relay's cursor at the newest signal
    for (const text of [`/link ${pro.plaintext}`, '/signals ACT']) {
      fake.pushMessage(CHAT, text);
      while ((await bot.poller!.pollOnce()) > 0);
    }
    const signals = createSignalStore(t.db);
    const deliver = async (survival: number | null) => {
      const now = Date.now();
      const x = await insertTestCross(t.db, { crossedAtMs: now - 30_000 });
      if (survival !== null) await logSurvival(t.db, x.mint, now - 40_000, survival, x.cross.priceSol);
      await signals.deliver(testDelivery(x, 0.4, now));
      return x.mint;
    };
    const sentTo = async (mints: string[]) => {
      await sender.drainBotSends({ maxMs: 1500 });
      return mints.filter((m) => fake.sent.some((s) => s.chatId === CHAT && s.text.includes(m)));
    };

    // No gate run yet: every ACT signal goes out.
    const before = await deliver(0.2);
    expect(await sentTo([before])).toEqual([before]);

    // The hourly run validates: 20 fires flagged ≥ 0.5 with 10 reaching 2×, 20 below with 2 (ratio 5, n ≥ 15 each).
    const start = Date.now() - 10 * H;
    await insertGateFires(t.db, start, { n: 20, hits: 10, survival: 0.8 });
    await insertGateFires(t.db, start + H, { n: 20, hits: 2, survival: 0.2 });
    const run = await accuracyActivities.create({ cfg: loadConfig({}), db: t.db, now: () => new Date() }).runGateValidation();
    expect(run).toMatchObject({ decision: 'validates' });

    const low = await deliver(0.49);
    const high = await deliver(0.5);
    const unscored = await deliver(null);
    expect(await sentTo([low, high, unscored])).toEqual([high, unscored]);
  }, 120_000);
});
