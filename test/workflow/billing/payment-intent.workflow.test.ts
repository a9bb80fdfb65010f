import { Client, Connection, WorkflowFailedError } from '@temporalio/client';
import { createApiKeyStore } from '../../../db/access/api-key-store';
import { createPaymentIntentStarter } from '../../../workflows/billing/payment-intent-starter';
import { createPlanActivation } from '../../../db/billing/plan-activation';
import { createPlanKeys } from '../../../db/billing/plan-keys';
import { memoFromRandomBytes } from '../../../domain/billing/payment-memo';
import { PAYMENT_OUTBOX_WORKFLOW } from '../../../workflows/billing/payment-outbox-contract';
import type { PaymentTiming } from '../../../workflows/billing/payment-intent-contract';
import { NODE_UNHEALTHY, randomAddress } from '../../fakes/solana-treasury-ledger';
import { call, startApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';
import { startPaymentSystem, type PaymentSystem } from '../../support/payment-harness';
import { uniqueId } from '../../support/worker-harness';

const SOL = 1_000_000_000;
const DAY_MS = 86_400_000;
// One-second polls; four polls per run, so every intent here also crosses continue-as-new.
const timing: PaymentTiming = { pollIntervalS: 1, reminderLeadS: 3 * 86_400, maxPollsPerRun: 4, reminderRetry: { initialIntervalS: 1, maximumAttempts: 2 } };
let s: PaymentSystem;

beforeAll(async () => {
  s = await startPaymentSystem({ intentWindowS: 15, timing, burnShare: 0.25, overrides: { billing: { outboxGraceMs: 0 } } });
});
afterAll(() => s.stop());

const grants = (memo: string) => s.db('api_key_plan_grants').where({ grant_id: `payment:${memo}` });
const me = async (key: string) => {
  const r = await call(`${s.api.url}/api/me`, { headers: { 'X-API-Key': key } });
  expectConforms('get', '/api/me', r.status, r.body);
  return r;
};
/** A minted key works only once its intent is paid; the API's key cache (5 s) holds a refusal for a second at most. */
async function expectUsableWithinASecond(key: string) {
  const from = Date.now();
  let r = await me(key);
  while (r.status !== 200 && Date.now() - from < 3000) {
    await new Promise((res) => setTimeout(res, 100));
    r = await me(key);
  }
  expect(r.status).toBe(200);
  expect(Date.now() - from).toBeLessThan(1500);
  return r.body;
}

describe('payment intent workflow: treasury → Temporal → Postgres', () => {
  it('activates a paid plan within about 30 s of the confirmed payment, once, and commits revenue to burns', async () => {
    const intent = await s.upgrade({ tier: 'pro', plan: 'monthly', email: 'payer@example.com' });
    // Keys are issued on payment: until then the minted key opens nothing.
    expect((await me(intent.api_key!)).body).toMatchObject({ error: 'key_not_active', status_url: `/api/upgrade/${intent.memo}` });
    const sig = s.ledger.pay({ memos: [intent.memo], lamports: intent.amount_lamports });
    const st = await s.waitForStatus(intent.memo, 'activated', 30_000);
    expect(st).toMatchObject({ paid_sol: 1, paid_lamports: SOL, excess_lamports: 0, signature: sig });
    expect(await expectUsableWithinASecond(intent.api_key!)).toMatchObject({ key_prefix: intent.key_prefix, tier: 'pro', plan: 'monthly' });

    const key = await s.key(intent.key_prefix);
    expect(key).toMatchObject({ tier: 'pro', plan: 'monthly' });
    expect(key.plan_expires_at.getTime() - new Date(st.activated_at).getTime()).toBe(30 * DAY_MS);
    expect(new Date(st.plan_expires_at)).toEqual(key.plan_expires_at);
    expect(await grants(intent.memo)).toHaveLength(1);

    // A quarter of the price is owed to burns this week, traced to the intent.
    const pending = await call(`${s.api.url}/api/burn/pending`);
    expectConforms('get', '/api/burn/pending', 200, pending.body);
    expect(pending.body).toMatchObject({
      token_mint: s.holderMint,
      count: 1,
      total_sol: 0.25,
      items: [{ kind: 'revenue_commitment', amount_sol: 0.25, amount_tokens: null, source_signature: null }],
    });
    expect(await s.db('burn_contributions').where({ intent_memo: intent.memo }).first()).toMatchObject({ lamports: 250_000_000 });

    // Activation is keyed by the intent: running it again (a retried activity) changes nothing.
    const again = await createPlanActivation(s.db, { planKeys: createPlanKeys, burnShareBps: 2500 }).activate(intent.memo, new Date());
    expect(again).toMatchObject({ firstTime: false, planExpiresAt: key.plan_expires_at });
    expect(await grants(intent.memo)).toHaveLength(1);
    expect((await s.db('burn_contributions').where({ intent_memo: intent.memo })).length).toBe(1);
    expect((await call(`${s.api.url}/api/burn/pending`)).body.total_sol).toBe(0.25);
  });

  it('keeps an underpaid intent waiting, then activates when a top-up under the same memo completes it', async () => {
    const intent = await s.upgrade({ tier: 'builder', plan: 'monthly' });
    s.ledger.pay({ memos: [intent.memo], lamports: 0.3 * SOL });
    const under = await s.waitForStatus(intent.memo, 'underpaid');
    expect(under).toMatchObject({ paid_sol: 0.3, activated_at: null });
    expect((await s.key(intent.key_prefix)).tier).toBe('free');
    expect((await me(intent.api_key!)).status).toBe(401); // part of the price opens nothing

    const topUp = s.ledger.pay({ memos: [intent.memo], lamports: 0.1 * SOL });
    const st = await s.waitForStatus(intent.memo, 'activated');
    expect(st).toMatchObject({ paid_sol: 0.4, excess_lamports: 0, signature: topUp });
    expect((await s.key(intent.key_prefix)).tier).toBe('builder');
  });

  it('activates an overpayment once and records the excess; a second payment with the memo never activates again', async () => {
    const intent = await s.upgrade({ tier: 'pro' });
    const first = s.ledger.pay({ memos: [intent.memo], lamports: 1.5 * SOL });
    const second = s.ledger.pay({ memos: [intent.memo], lamports: SOL }); // the same payment sent twice
    const st = await s.waitForStatus(intent.memo, 'activated');
    expect(st).toMatchObject({ signature: first, paid_lamports: 2.5 * SOL, excess_lamports: 1.5 * SOL });
    const row = await s.db('payment_intents').where({ memo: intent.memo }).first();
    expect(row.signatures).toEqual({ counted: [first], after_completion: [second], late: [] });
    const key = await s.key(intent.key_prefix);
    expect(key.plan_expires_at.getTime() - row.activated_at.getTime()).toBe(30 * DAY_MS);
    expect(await grants(intent.memo)).toHaveLength(1);

    // Later transfers under the memo are still recorded (other open intents keep the scan going) and change nothing.
    const keeper = await s.upgrade({});
    const third = s.ledger.pay({ memos: [intent.memo], lamports: SOL });
    await s.waitFor('the third transfer to be recorded', async () => (await s.db('treasury_transactions').where({ signature: third }).first()) ?? undefined);
    expect((await s.status(intent.memo)).paid_lamports).toBe(3.5 * SOL);
    expect((await s.key(intent.key_prefix)).plan_expires_at).toEqual(key.plan_expires_at);
    expect(await grants(intent.memo)).toHaveLength(1);
    expect((await s.status(keeper.memo)).status).toBe('pending');
  });

  it('never activates on a wrong memo, a missing memo, a failed transaction or a transfer elsewhere; the intent expires', async () => {
    const intent = await s.upgrade({ tier: 'pro', plan: 'yearly' });
    const other = memoFromRandomBytes(Buffer.alloc(16, 7));
    s.ledger.pay({ memos: [other], lamports: 10 * SOL });
    s.ledger.pay({ memos: [], lamports: 10 * SOL });
    s.ledger.pay({ memos: [`${intent.memo} `.slice(0, -2)], lamports: 10 * SOL }); // one character short
    s.ledger.pay({ memos: [intent.memo], lamports: 10 * SOL, err: { InstructionError: [0, { Custom: 1 }] } });
    s.ledger.pay({ memos: [intent.memo], lamports: 10 * SOL, to: randomAddress() });
    s.ledger.pay({ memos: [intent.memo, memoFromRandomBytes(Buffer.alloc(16, 9))], lamports: 10 * SOL }); // names two intents
    const result = await s.workflowResult(intent.memo);
    expect(result).toMatchObject({ phase: 'expired', activation: null });
    expect(result.polls).toBeGreaterThan(timing.maxPollsPerRun); // it continued as new on the way
    expect(await s.status(intent.memo)).toMatchObject({ status: 'expired', paid_sol: 0, activated_at: null });
    expect((await s.key(intent.key_prefix)).tier).toBe('free');
    // The expired intent's key stays unusable for good: nothing but a paid plan ever activates it.
    expect((await me(intent.api_key!)).body).toMatchObject({ error: 'key_not_active' });
    expect((await s.key(intent.key_prefix)).awaiting_payment_of).toBe(intent.memo);
    await s.w.maybeRecordHistory(`payment:${intent.memo}`, 'payment-expired');
  });

  it('rides out an RPC node that is down, then activates once when it is back', async () => {
    s.ledger.setFault(NODE_UNHEALTHY);
    try {
      const intent = await s.upgrade({ tier: 'builder', plan: 'yearly' });
      s.ledger.pay({ memos: [intent.memo], lamports: 4 * SOL });
      await s.waitFor('failed polls', async () => (await s.workflowState(intent.memo)).failedPolls >= 2);
      const state = await s.workflowState(intent.memo);
      expect(state.lastError).toContain('Node is unhealthy');
      expect((await s.status(intent.memo)).status).toBe('pending');
      s.ledger.setFault(null);
      await s.waitForStatus(intent.memo, 'activated');
      expect(await grants(intent.memo)).toHaveLength(1);
      expect((await s.key(intent.key_prefix)).tier).toBe('builder');
      await expectUsableWithinASecond(intent.api_key!);
    } finally {
      s.ledger.setFault(null);
    }
  });

  it('does not activate for a key revoked after the intent was made: the payment stays paid for an operator', async () => {
    const intent = await s.upgrade({ tier: 'builder' });
    await createApiKeyStore(s.db).revoke((await s.key(intent.key_prefix)).id);
    s.ledger.pay({ memos: [intent.memo], lamports: intent.amount_lamports });
    await expect(s.workflowResult(intent.memo)).rejects.toThrow(WorkflowFailedError);
    expect(await s.status(intent.memo)).toMatchObject({ status: 'paid', activated_at: null, paid_lamports: intent.amount_lamports });
    expect(await grants(intent.memo)).toHaveLength(0);
    expect((await s.key(intent.key_prefix)).tier).toBe('free');
    expect((await me(intent.api_key!)).status).toBe(401);
  });

  it('starts, through the outbox sweep, an intent whose workflow start was lost', async () => {
    const down = new Client({ connection: Connection.lazy({ address: '127.0.0.1:9', connectTimeout: 300, interceptors: [] }) });
    const api = await startApi(s.db, {
      env: { TREASURY_ADDRESS: s.treasury },
      // Intents shorter than PAYMENT_INTENT_WINDOW_S allows, started through a Temporal that is down.
      overrides: { billing: { intentWindowS: 15, paymentStarter: createPaymentIntentStarter(down, s.w.taskQueue, timing, { timeoutMs: 500 }) } },
    });
    let memo: string;
    try {
      const r = await call(`${api.url}/api/upgrade`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      memo = r.body.memo;
    } finally {
      await api.close();
      await down.connection.close();
    }
    expect((await s.db('payment_intents').where({ memo }).first()).workflow_started_at).toBeNull();
    s.ledger.pay({ memos: [memo], lamports: SOL });
    const workflowId = uniqueId('payment-outbox');
    const swept = await s.w.client.workflow.execute(PAYMENT_OUTBOX_WORKFLOW, { taskQueue: s.w.taskQueue, workflowId });
    expect(swept.started).toContain(memo);
    await s.w.maybeRecordHistory(workflowId, 'payment-outbox-sweep');
    await s.waitForStatus(memo, 'activated');
    expect((await s.db('payment_intents').where({ memo }).first()).workflow_started_at).not.toBeNull();
  });
});
