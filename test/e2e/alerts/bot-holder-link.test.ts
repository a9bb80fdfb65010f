import { alertsActivities } from '../../../activities/alerts';
import { buildBot } from '../../../bot/build-bot';
import { createBotSender } from '../../../activities/alerts/bot-sender';
import { createHolderBalanceClient } from '../../../clients/solana/holder-balance-client';
import { startSolanaRpcServer, type SolanaRpcFake } from '../../fakes/solana-rpc-server';
import { startTelegramBotApiServer, type TelegramBotApiFake } from '../../fakes/telegram-bot-api-server';
import { areaContext } from '../../support/area-context';
import { installHolderToken, TEST_HOLDER_MINT, type HolderToken } from '../../support/holder-token-rpc';
import { createTestDatabase } from '../../support/test-db';
import { testWallet } from '../../support/test-wallet';
import { startWorker } from '../../support/worker-harness';

/**
 * Linking a holder wallet from the bot goes through the API's signed-message signup (the wallet-signup workflow on
 * the run's Temporal server, its signature check and balance read): `/link wallet` answers the message to sign,
 * `/sign` hands the signature to the workflow; a signature by another wallet is refused, a balance under 500k
 * links nothing, and a 500k holder's chat is linked to the key the signup minted, with signal access.
 */
const TOKEN = '454545:bot-holder-token-abcdefghijkl';
let t: Awaited<ReturnType<typeof createTestDatabase>>;
let w: Awaited<ReturnType<typeof startWorker>>;
let rpc: SolanaRpcFake;
let holder: HolderToken;
let fake: TelegramBotApiFake;

beforeAll(async () => {
  t = await createTestDatabase();
  rpc = await startSolanaRpcServer({ programId: '6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P' });
  holder = installHolderToken(rpc);
  w = await startWorker(t.db, {
    overrides: { access: { holderBalances: createHolderBalanceClient({ rpcUrl: rpc.url, mint: TEST_HOLDER_MINT, timeoutMs: 2000 }) } },
  });
  fake = await startTelegramBotApiServer(TOKEN);
});
afterAll(async () => {
  await fake.close();
  await w.stop();
  await rpc.close();
  await t.drop();
});

describe('the bot /link wallet and /sign', () => {
  it('links a chat to holder access once the wallet signed its message and holds 500k', async () => {
    const env = {
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_API_ROOT: fake.apiRoot,
      BOT_SEND_PER_CHAT_INTERVAL_MS: '0',
      PUBLIC_BASE_URL: 'https://lp.example',
      TEMPORAL_TASK_QUEUE: w.taskQueue,
    };
    const d = alertsActivities.deps(areaContext(t.db, { env }));
    const bot = buildBot({ ...areaContext(t.db, { env }), temporal: w.client });
    const sender = createBotSender(d);
    const say = async (chat: number, ...texts: string[]) => {
      const before = fake.sent.filter((m) => m.chatId === chat).length;
      for (const text of texts) fake.pushMessage(chat, text);
      expect(await bot.poller!.pollOnce()).toBe(texts.length);
      await sender.drainBotSends({ maxMs: 500 });
      return fake.sent
        .filter((m) => m.chatId === chat)
        .slice(before)
        .map((m) => m.text);
    };
    const rich = testWallet();
    const poor = testWallet();
    const other = testWallet();
    holder.setBalance(rich.address, 600_000);
    holder.setBalance(poor.address, 100_000);

    expect(await say(801, '/sign ' + other.sign('x'), '/link wallet abc', '/sign nope')).toEqual([
      'Start with /link wallet <address>: I will give you the message to sign.',
      expect.stringMatching(/^That is not a wallet address: it does not decode to a 32-byte/),
      expect.stringMatching(/^usage: \/sign <signature>/),
    ]);
    const [ask] = await say(801, `/link wallet ${rich.address}`);
    expect(ask).toMatch(
      new RegExp(`^Sign this exact message with ${rich.address} .*\n\nservice :: holder signup for signals access link_id=\\S+ :: ${rich.address}$`),
    );
    const message = ask!.split('\n').at(-1)!;
    // Signed by another wallet, or another message: refused, the link stays open for a good signature.
    expect(await say(801, `/sign ${other.sign(message)}`, `/sign ${rich.sign(message + ' ')}`)).toEqual([
      expect.stringMatching(`^That is not a signature by ${rich.address} of the message I sent`),
      expect.stringMatching(`^That is not a signature by ${rich.address}`),
    ]);
    expect((await t.db('bot_chats').where({ chat_id: 801 }).first()).owner_key_id).toBeNull();
    const [linked] = await say(801, `/sign ${rich.sign(message)}`);
    expect(linked).toMatch(new RegExp(`^Linked to holder wallet ${rich.address} \\(600,000 holder tokens\\): signal access\\.`));
    const linkId = /link_id=(\S+) ::/.exec(message)![1]!;
    const link = await t.db('wallet_links').where({ link_id: linkId }).first();
    expect(link).toMatchObject({ status: 'fulfilled', wallet: rich.address });
    expect((await t.db('bot_chats').where({ chat_id: 801 }).first()).owner_key_id).toBe(link.key_id);
    expect(await say(801, '/tier', '/signals ACT')).toEqual([
      expect.stringMatching(/^Plan: free\n.*\nHolder access: signals\n/s),
      'You will receive ACT signals.',
    ]);

    // Under the threshold: the signature is good, nothing is linked.
    const [askPoor] = await say(802, `/link wallet ${poor.address}`);
    const [refused] = await say(802, `/sign ${poor.sign(askPoor!.split('\n').at(-1)!)}`);
    expect(refused).toBe(`${poor.address} holds 100,000 holder tokens; signal access needs 500,000. Nothing was linked.`);
    expect((await t.db('bot_chats').where({ chat_id: 802 }).first()).owner_key_id).toBeNull();
  }, 90_000);
});
