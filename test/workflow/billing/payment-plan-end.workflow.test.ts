import type { PaymentTiming } from '../../../workflows/billing/payment-intent-contract';
import { call } from '../../support/api-harness';
import { startPaymentSystem, type PaymentSystem } from '../../support/payment-harness';

const SOL = 1_000_000_000;
const DAY_MS = 86_400_000;
// Reminders 4 s before the plan ends; a refusing mail server is tried twice, a second apart.
const timing: PaymentTiming = { pollIntervalS: 1, reminderLeadS: 4, maxPollsPerRun: 500, reminderRetry: { initialIntervalS: 1, maximumAttempts: 2 } };
/**
 * The activities' clock. A plan bought "30 days minus a few seconds ago" ends a few seconds from now, so the real
 * Temporal timers of reminder and plan end run out within the test; the clock is real again once it is activated.
 */
let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);
let s: PaymentSystem;

beforeAll(async () => {
  s = await startPaymentSystem({ intentWindowS: 120, timing, clock });
});
afterAll(() => s.stop());

/** Pays an intent and waits for activation with a plan that ends `endsInS` seconds from now. */
async function activateEndingIn(body: Record<string, unknown>, endsInS: number) {
  const intent = await s.upgrade(body);
  offsetMs = -30 * DAY_MS + endsInS * 1000;
  try {
    s.ledger.pay({ memos: [intent.memo], lamports: intent.amount_lamports });
    return { intent, status: await s.waitForStatus(intent.memo, 'activated') };
  } finally {
    offsetMs = 0;
  }
}

describe('plan end: reminder before expiry, revert at expiry unless renewed', () => {
  it('emails a reminder over SMTP shortly before the plan ends, then reverts the key to free', async () => {
    const { intent, status } = await activateEndingIn({ tier: 'pro', email: 'payer@example.com' }, 9);
    expect((await s.key(intent.key_prefix)).tier).toBe('pro');
    const result = await s.workflowResult(intent.memo);
    expect(result).toMatchObject({ phase: 'ended', end: 'reverted', reminder: { renewed: false, channel: 'email', status: 'sent' } });

    expect(s.smtp.received).toHaveLength(1);
    const mail = s.smtp.received[0]!;
    expect(mail).toMatchObject({ from: 'billing@api.example.test', to: ['payer@example.com'] });
    expect(mail.raw).toContain(`Message-ID: <plan-reminder.${intent.memo}@api.example.test>`);
    expect(mail.raw).toContain(`Subject: Your pro plan ends ${status.plan_expires_at.slice(0, 10)}`);
    expect(mail.raw).toContain(`API key ${intent.key_prefix}`);
    expect(mail.raw).not.toContain(intent.api_key!);

    expect(await s.db('plan_reminders').where({ intent_memo: intent.memo }).first()).toMatchObject({
      channel: 'email',
      recipient: 'payer@example.com',
      status: 'sent',
      error: null,
    });
    expect(await s.key(intent.key_prefix)).toMatchObject({ tier: 'free', plan: null });
    // Paid once, the key stays a working key after its plan: it falls back to Free, it is not closed again.
    const me = await call(`${s.api.url}/api/me`, { headers: { 'X-API-Key': intent.api_key! } });
    expect([me.status, me.body.tier]).toEqual([200, 'free']);
    expect(await s.db('payment_intents').where({ memo: intent.memo }).first()).toMatchObject({ status: 'activated', plan_outcome: 'reverted' });
    await s.w.maybeRecordHistory(`payment:${intent.memo}`, 'payment-activated-reminded-reverted');
  });

  it('does not remind or revert a plan renewed by a later intent for the same key', async () => {
    const first = await activateEndingIn({ tier: 'pro', telegram_id: 424242 }, 10);
    const firstEnd = new Date(first.status.plan_expires_at).getTime();
    const renewal = await s.upgrade({ key: first.intent.api_key, tier: 'pro' });
    expect(renewal).toMatchObject({ api_key: null, key_prefix: first.intent.key_prefix });
    s.ledger.pay({ memos: [renewal.memo], lamports: SOL });
    const renewed = await s.waitForStatus(renewal.memo, 'activated');
    expect(new Date(renewed.plan_expires_at).getTime()).toBe(firstEnd + 30 * DAY_MS);

    const result = await s.workflowResult(first.intent.memo);
    expect(result).toMatchObject({ phase: 'ended', end: 'renewed', reminder: { renewed: true, channel: null } });
    expect(await s.db('plan_reminders').where({ intent_memo: first.intent.memo }).first()).toBeUndefined();
    expect(await s.key(first.intent.key_prefix)).toMatchObject({ tier: 'pro', plan_expires_at: new Date(firstEnd + 30 * DAY_MS) });
    expect((await s.db('payment_intents').where({ memo: first.intent.memo }).first()).plan_outcome).toBe('renewed');
    await s.w.maybeRecordHistory(`payment:${first.intent.memo}`, 'payment-renewed');
  });

  it('sends the reminder through the messaging bot when only a Telegram user was given', async () => {
    s.telegram.startChat(777);
    const { intent, status } = await activateEndingIn({ tier: 'builder', telegram_id: 777 }, 7);
    expect(await s.workflowResult(intent.memo)).toMatchObject({ end: 'reverted', reminder: { channel: 'telegram', status: 'sent' } });
    const sent = s.telegram.sent.filter((m) => m.chatId === 777);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toContain(`Your builder plan on API key ${intent.key_prefix}… ends at ${status.plan_expires_at}`);
    expect(sent[0]!.text).toContain(`memo ${intent.memo}`);
    expect(sent[0]!.text).not.toContain(intent.api_key!);
    expect(await s.db('plan_reminders').where({ intent_memo: intent.memo }).first()).toMatchObject({
      channel: 'telegram',
      recipient: '777',
      status: 'sent',
      message_id: String(sent[0]!.messageId),
    });
    expect(await s.key(intent.key_prefix)).toMatchObject({ tier: 'free' });
  });

  it('records a reminder to a user who blocked the bot as failed at once, and still ends the plan on time', async () => {
    s.telegram.startChat(888);
    s.telegram.blockChat(888);
    // Flood control first: the activity retries it (the next attempt is the one Telegram refuses for good).
    s.telegram.setFlooding(1);
    const { intent } = await activateEndingIn({ tier: 'pro', telegram_id: 888 }, 7);
    expect(await s.workflowResult(intent.memo)).toMatchObject({ end: 'reverted', reminder: { channel: 'telegram', status: 'failed' } });
    const row = await s.db('plan_reminders').where({ intent_memo: intent.memo }).first();
    expect(row).toMatchObject({ channel: 'telegram', recipient: '888', status: 'failed', message_id: null });
    expect(row.error).toContain('Forbidden: bot was blocked by the user');
    expect(row.error).not.toContain('test-bot-token');
    expect(await s.key(intent.key_prefix)).toMatchObject({ tier: 'free' });
  });

  it('records a reminder the mail server keeps refusing as failed, and still ends the plan on time', async () => {
    s.smtp.setRejecting(true);
    try {
      const before = s.smtp.received.length;
      const { intent } = await activateEndingIn({ tier: 'builder', email: 'bounce@example.com' }, 8);
      expect(await s.workflowResult(intent.memo)).toMatchObject({ end: 'reverted', reminder: { channel: 'email', status: 'failed' } });
      const row = await s.db('plan_reminders').where({ intent_memo: intent.memo }).first();
      expect(row).toMatchObject({ status: 'failed' });
      expect(row.error).toMatch(/451/);
      expect(s.smtp.received.length).toBe(before);
      expect((await s.key(intent.key_prefix)).tier).toBe('free');
    } finally {
      s.smtp.setRejecting(false);
    }
  });
});
