import { alertsActivities } from '../../../activities/alerts';
import { buildBot } from '../../../bot/build-bot';
import { createBotSender } from '../../../activities/alerts/bot-sender';
import { startTelegramBotApiServer, type TelegramBotApiFake } from '../../fakes/telegram-bot-api-server';
import { issueTestKey } from '../../support/access-keys';
import { areaContext } from '../../support/area-context';
import { PUBLIC_BASE, startPaymentSystem, type PaymentSystem } from '../../support/payment-harness';

/**
 * `/upgrade` in the bot answers the plan's Solana Pay transfer request for the chat's linked key: the intent is the
 * one `POST /api/upgrade` creates for that key (GET /api/upgrade/{memo} answers it, per openapi.yaml, with the very
 * same link), and paying it on the (local) chain activates the plan on that key through the payment workflow.
 */
const TOKEN = '434343:bot-upgrade-token-abcdefghijkl';
const CHAT = 7101;
let s: PaymentSystem;
let fake: TelegramBotApiFake;

beforeAll(async () => {
  s = await startPaymentSystem({
    intentWindowS: 600,
    timing: { pollIntervalS: 1, reminderLeadS: 3 * 86_400, maxPollsPerRun: 60, reminderRetry: { initialIntervalS: 1, maximumAttempts: 2 } },
  });
  fake = await startTelegramBotApiServer(TOKEN);
});
afterAll(async () => {
  await fake.close();
  await s.stop();
});

describe('the bot /upgrade', () => {
  it('answers a Solana Pay link whose payment activates the plan on the linked key, as the API would', async () => {
    const env = {
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_API_ROOT: fake.apiRoot,
      BOT_SEND_PER_CHAT_INTERVAL_MS: '0',
      PUBLIC_BASE_URL: PUBLIC_BASE,
      TREASURY_ADDRESS: s.treasury,
      TEMPORAL_TASK_QUEUE: s.w.taskQueue,
      PAYMENT_POLL_INTERVAL_S: '1',
    };
    const d = alertsActivities.deps(areaContext(s.db, { env }));
    const bot = buildBot({ ...areaContext(s.db, { env }), temporal: s.w.client });
    const sender = createBotSender(d);
    const free = await issueTestKey(s.db, 'free');
    const say = async (...texts: string[]) => {
      const before = fake.sent.filter((m) => m.chatId === CHAT).length;
      for (const text of texts) fake.pushMessage(CHAT, text);
      expect(await bot.poller!.pollOnce()).toBe(texts.length);
      await sender.drainBotSends({ maxMs: 500 });
      return fake.sent
        .filter((m) => m.chatId === CHAT)
        .slice(before)
        .map((m) => m.text);
    };

    expect(await say('/upgrade', '/upgrade gold')).toEqual([
      expect.stringMatching(/^Link this chat first: \/link <API key>, or \/link wallet <address>/),
      expect.stringMatching(/^usage: \/upgrade \[builder\|pro\] \[monthly\|yearly\]/),
    ]);
    const [, reply] = await say(`/link ${free.plaintext}`, '/upgrade builder');
    const url = /^Solana Pay: (solana:\S+)$/m.exec(reply!)?.[1];
    expect(url).toBeDefined();
    // The transfer request per the spec: recipient as the path, exact decimal amount, memo, label, message.
    const parsed = new URL(url!);
    expect(parsed.protocol).toBe('solana:');
    expect(parsed.pathname).toBe(s.treasury);
    expect(Object.fromEntries(parsed.searchParams)).toEqual({
      amount: '0.4',
      label: 'Launchpad API',
      message: 'builder monthly plan',
      memo: expect.stringMatching(/^\S{8,}$/),
    });
    const memo = parsed.searchParams.get('memo')!;
    expect(reply).toContain(`${PUBLIC_BASE}/api/upgrade/${memo}`);
    expect(reply).not.toContain(free.plaintext);

    // The API answers the intent (validated against openapi.yaml): this key, this price, the very same link.
    const pending = await s.status(memo);
    expect(pending).toMatchObject({ status: 'pending', tier: 'builder', plan: 'monthly', amount_lamports: 400_000_000, key_prefix: free.prefix });
    expect(pending.deeplinks.solana_pay).toBe(url);
    expect(await s.db('payment_intents').where({ memo }).first()).toMatchObject({ telegram_id: CHAT, key_minted: false });

    // Paying the link activates Builder on the linked key (the bot started the intent's workflow).
    s.ledger.pay({ memos: [memo], lamports: 400_000_000 });
    const done = await s.waitForStatus(memo, 'activated', 30_000);
    expect(await s.key(free.prefix)).toMatchObject({ tier: 'builder', plan: 'monthly' });
    const [tier] = await say('/tier');
    expect(tier).toMatch(new RegExp(`^Plan: builder until ${String(done.plan_expires_at).slice(0, 10)}\n`));
  }, 90_000);
});
