import { createBotChatStore } from '../../../db/alerts/bot-chat-store';
import { createBotSendStore } from '../../../db/alerts/bot-send-store';
import { BOT_SENDER_WORKFLOW, type BotSenderInput } from '../../../workflows/alerts/bot-sender-contract';
import { ensureBotSender } from '../../../workflows/alerts/bot-sender-starter';
import type { TelegramBotApiFake } from '../../fakes/telegram-bot-api-server';
import type { createTestDatabase } from '../../support/test-db';
import { useTelegramTestbed } from '../../support/telegram-testbed';
import { startWorker, uniqueId } from '../../support/worker-harness';

/**
 * The bot's durable send queue drained by the `botSender` workflow against the local Telegram Bot API server: a
 * burst of 500 messages to 250 chats arrives in order per chat, within about one message a second per chat and 30 a
 * second overall, once each, although the worker is stopped mid-burst and another takes over; a flood-control 429
 * pauses sending for its retry_after; a user who blocked the bot is recorded and never retried.
 */
const TOKEN = '123456:test-token-abcdefghijklmnopqrstuvwxyz';
const CHATS = 250;
const BLOCKED = 99_999;
let t: Awaited<ReturnType<typeof createTestDatabase>>;
let fake: TelegramBotApiFake;

useTelegramTestbed(TOKEN, (bed) => ({ t, fake } = bed));

async function waitFor(what: string, cond: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  for (const until = Date.now() + timeoutMs; !(await cond()); await new Promise((r) => setTimeout(r, 100)))
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
}

describe('bot sender workflow', () => {
  it('delivers a burst in order, within the limits, once each, across a worker restart; honours 429; records a block', async () => {
    const sends = createBotSendStore(t.db);
    const chats = createBotChatStore(t.db);
    const now = new Date();
    for (let c = 0; c < CHATS; c++) fake.startChat(1000 + c);
    fake.startChat(BLOCKED);
    fake.blockChat(BLOCKED);
    await chats.seen(BLOCKED, now);
    for (let i = 0; i < 500; i++) await sends.enqueue(1000 + (i % CHATS), `burst:${i}`, `message ${i}`, now);
    for (let i = 0; i < 3; i++) await sends.enqueue(BLOCKED, `blocked:${i}`, `to a blocked user ${i}`, now);
    fake.setFlooding(3);

    const env = { TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_API_ROOT: fake.apiRoot };
    const workflowId = uniqueId('bot-sender');
    let w = await startWorker(t.db, { env });
    await ensureBotSender(w.client, w.taskQueue, { workflowId, drainMs: 3000 });
    const taskQueue = w.taskQueue;
    try {
      await waitFor('part of the burst', () => fake.sent.length >= 150, 60_000);
      await w.stop(); // mid-burst: the drain in flight stops; what it sent is marked, the rest waits in Postgres
      const atStop = fake.sent.length;
      expect(atStop).toBeLessThan(500);
      w = await startWorker(t.db, { env: { ...env, TEMPORAL_TASK_QUEUE: taskQueue } });
      await waitFor('the whole burst', async () => (await sends.pendingCount()) === 0, 90_000);

      // Once each, nothing lost, and nothing to the blocked user.
      const texts = fake.sent.map((m) => m.text);
      expect(texts.length).toBe(500);
      expect(new Set(texts).size).toBe(500);
      expect(fake.sent.some((m) => m.chatId === BLOCKED)).toBe(false);
      // In order per chat, and about a second apart.
      for (let c = 0; c < CHATS; c++) {
        const mine = fake.sent.filter((m) => m.chatId === 1000 + c);
        expect(mine.map((m) => m.text)).toEqual([`message ${c}`, `message ${c + CHATS}`]);
        expect(mine[1]!.at - mine[0]!.at).toBeGreaterThanOrEqual(1000);
      }
      // At most 30 in any second overall, as the server received them.
      const at = fake.sent.map((m) => m.at).sort((a, b) => a - b);
      for (let i = 30; i < at.length; i++) expect(at[i]! - at[i - 30]!).toBeGreaterThanOrEqual(1000);
      // The 429s were honoured: after the rest of the batch already in flight, nothing went out for retry_after (1 s).
      expect(fake.floodedAt.length).toBe(3);
      const lastFlood = Math.max(...fake.floodedAt);
      const after = at.filter((x) => x > lastFlood);
      const resumed = after.findIndex((x, i) => i > 0 && x - after[i - 1]! > 500);
      expect(resumed).toBeGreaterThan(0);
      expect(resumed).toBeLessThanOrEqual(27);
      expect(after[resumed]! - lastFlood).toBeGreaterThanOrEqual(1000);
      // The blocked user: recorded, queue refused, not retried.
      expect((await chats.get(BLOCKED))!.blockedAt).not.toBeNull();
      const refused = await t.db('bot_sends').where({ chat_id: BLOCKED }).select('state', 'attempts');
      expect(refused.map((r) => r.state)).toEqual(['refused', 'refused', 'refused']);
      expect(refused.reduce((n, r) => n + r.attempts, 0)).toBeLessThanOrEqual(1);
      const sent = await t.db('bot_sends').where({ state: 'sent' }).count<{ n: string }[]>('* as n');
      expect(Number(sent[0]!.n)).toBe(500);
    } finally {
      await w.client.workflow.getHandle(workflowId).terminate('test over');
      await w.stop();
    }
  }, 180_000);

  it('continues as new after its drains with the same input', async () => {
    const w = await startWorker(t.db, { env: { TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_API_ROOT: fake.apiRoot } });
    const workflowId = uniqueId('bot-sender');
    const input: BotSenderInput = { drainMs: 200, iterationsPerRun: 2 };
    const handle = await w.client.workflow.start(BOT_SENDER_WORKFLOW, { taskQueue: w.taskQueue, workflowId, args: [input] });
    try {
      const first = w.client.workflow.getHandle(workflowId, handle.firstExecutionRunId);
      await waitFor('the first run to continue as new', async () => (await first.describe()).status.name === 'CONTINUED_AS_NEW', 30_000);
      await w.maybeRecordHistory(workflowId, 'bot-sender-continued-as-new', handle.firstExecutionRunId);
      expect((await handle.describe()).status.name).toBe('RUNNING');
    } finally {
      await handle.terminate('test over');
      await w.stop();
    }
  }, 60_000);
});
