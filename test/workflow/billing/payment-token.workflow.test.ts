import { createPlanActivation } from '../../../db/billing/plan-activation';
import { createPlanKeys } from '../../../db/billing/plan-keys';
import { memoFromRandomBytes } from '../../../domain/billing/payment-memo';
import { BURN_RECORD_WORKFLOW, burnRecordWorkflowId, type BurnRecordResult } from '../../../workflows/billing/burn-record-contract';
import type { PaymentTiming } from '../../../workflows/billing/payment-intent-contract';
import { randomAddress } from '../../fakes/solana-treasury-ledger';
import { call } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';
import { HOLDER_DECIMALS, startPaymentSystem, type PaymentSystem } from '../../support/payment-harness';

const SOL = 1_000_000_000;
const DAY_MS = 86_400_000;
// 25,000.5 tokens per SOL of list price: Pro monthly (1 SOL) costs 25,000.5 tokens, 25_000_500_000 raw units.
const TOKENS_PER_SOL = '25000.5';
const PRO_MONTHLY_RAW = 25_000_500_000n;
const timing: PaymentTiming = { pollIntervalS: 1, reminderLeadS: 3 * 86_400, maxPollsPerRun: 4, reminderRetry: { initialIntervalS: 1, maximumAttempts: 2 } };
let s: PaymentSystem;

beforeAll(async () => {
  // A revenue share is configured: token payments must still owe none of it.
  s = await startPaymentSystem({ intentWindowS: 15, timing, burnShare: 0.25, tokensPerSol: TOKENS_PER_SOL });
});
afterAll(() => s.stop());

const pending = async () => {
  const r = await call(`${s.api.url}/api/burn/pending`);
  expectConforms('get', '/api/burn/pending', 200, r.body);
  return r.body;
};
const receiptsFor = (signature: string) => s.db('burn_obligations').where({ kind: 'payment_receipt', source_signature: signature });
const tokenIntent = (body: Record<string, unknown> = {}) => s.upgrade({ tier: 'pro', plan: 'monthly', ...body, pay_with: 'token' });

describe('paying a plan with the holder token: treasury token account → Temporal → Postgres → burns', () => {
  it('activates a token-paid intent within the deadline and owes its tokens to a burn; a recorded burn settles it', async () => {
    const intent = await tokenIntent({ email: 'holder@example.com' });
    expect(intent).toMatchObject({ pay_with: 'token', amount_tokens: '25000.5', token_mint: s.holderMint, amount_sol: 1, amount_lamports: SOL });
    expect(new URL(intent.deeplinks.solana_pay).searchParams.get('spl-token')).toBe(s.holderMint);
    expect(new URL(intent.deeplinks.solana_pay).searchParams.get('amount')).toBe('25000.5');

    // The treasury has no token account yet: the payer's wallet creates it in the same transaction.
    const sig = s.ledger.payToken({ memos: [intent.memo], amountRaw: PRO_MONTHLY_RAW, createsAccount: true });
    const paidAt = Date.now();
    const st = await s.waitForStatus(intent.memo, 'activated', 30_000);
    expect(Date.now() - paidAt).toBeLessThan(30_000);
    expect(st).toMatchObject({
      pay_with: 'token',
      amount_tokens: '25000.5',
      paid_tokens: '25000.5',
      excess_tokens: '0',
      paid_lamports: 0,
      excess_lamports: 0,
      signature: sig,
    });
    const key = await s.key(intent.key_prefix);
    expect(key).toMatchObject({ tier: 'pro', plan: 'monthly' });
    expect(key.plan_expires_at.getTime() - new Date(st.activated_at).getTime()).toBe(30 * DAY_MS);

    // The receipt is owed; no revenue commitment (that share is of SOL revenue).
    const p = await pending();
    const receipt = p.items.find((i: { source_signature: string | null }) => i.source_signature === sig);
    expect(receipt).toMatchObject({ kind: 'payment_receipt', amount_tokens: 25_000.5, amount_sol: null, period_start: null, due_at: null });
    expect(p.items.filter((i: { kind: string }) => i.kind === 'revenue_commitment')).toEqual([]);
    expect(await s.db('burn_contributions').where({ intent_memo: intent.memo })).toEqual([]);

    // The operator burns the tokens and records it through the recordBurn workflow: the receipt moves to the history.
    const burnSig = s.ledger.burn({ mint: s.holderMint, amountRaw: PRO_MONTHLY_RAW, decimals: HOLDER_DECIMALS });
    const burn = (await s.w.client.workflow.execute(BURN_RECORD_WORKFLOW, {
      taskQueue: s.w.taskQueue,
      workflowId: burnRecordWorkflowId(burnSig),
      args: [{ signature: burnSig, kind: 'payment_receipt', settles: [receipt.id] }],
    })) as BurnRecordResult;
    expect(burn).toMatchObject({ inserted: true, amountTokens: 25_000.5 });
    expect((await pending()).items.map((i: { id: number }) => i.id)).not.toContain(receipt.id);
    const h = await call(`${s.api.url}/api/burn/history`);
    expectConforms('get', '/api/burn/history', 200, h.body);
    expect(h.body.burns).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: burn.id, kind: 'payment_receipt', amount_tokens: 25_000.5, signature: burnSig })]),
    );
  });

  it('never activates on another mint, another memo, a transfer elsewhere, a failed one or SOL; a short amount stays underpaid', async () => {
    const [wrong, short] = [await tokenIntent(), await tokenIntent()];
    s.ledger.payToken({ memos: [wrong.memo], amountRaw: 10n * PRO_MONTHLY_RAW, mint: randomAddress() });
    s.ledger.payToken({ memos: [memoFromRandomBytes(Buffer.alloc(16, 5))], amountRaw: 10n * PRO_MONTHLY_RAW });
    s.ledger.payToken({ memos: [], amountRaw: 10n * PRO_MONTHLY_RAW });
    s.ledger.payToken({ memos: [wrong.memo], amountRaw: 10n * PRO_MONTHLY_RAW, recipient: randomAddress() });
    s.ledger.payToken({ memos: [wrong.memo], amountRaw: 10n * PRO_MONTHLY_RAW, err: { InstructionError: [0, { Custom: 1 }] } });
    s.ledger.pay({ memos: [wrong.memo], lamports: 10 * SOL }); // SOL to a token intent is not converted
    s.ledger.payToken({ memos: [short.memo], amountRaw: PRO_MONTHLY_RAW - 1n }); // one raw unit short

    const [wrongEnd, shortEnd] = await Promise.all([s.workflowResult(wrong.memo), s.workflowResult(short.memo)]);
    expect(wrongEnd).toMatchObject({ phase: 'expired', activation: null });
    expect(shortEnd).toMatchObject({ phase: 'underpaid', activation: null });
    expect(await s.status(wrong.memo)).toMatchObject({ status: 'expired', paid_tokens: '0', paid_sol: 10, activated_at: null });
    expect(await s.status(short.memo)).toMatchObject({ status: 'underpaid', paid_tokens: '25000.499999', activated_at: null });
    for (const i of [wrong, short]) expect((await s.key(i.key_prefix)).tier).toBe('free');
    expect(await s.db('burn_obligations').where({ kind: 'payment_receipt' })).toHaveLength(1); // the first test's, settled
  });

  it('activates a payment sent twice once, with one receipt, even when activation runs again', async () => {
    const intent = await tokenIntent({ plan: 'yearly' }); // 10 SOL → 250,005 tokens
    const price = 10n * PRO_MONTHLY_RAW;
    const first = s.ledger.payToken({ memos: [intent.memo], amountRaw: price });
    const second = s.ledger.payToken({ memos: [intent.memo], amountRaw: price });
    const st = await s.waitForStatus(intent.memo, 'activated');
    expect(st).toMatchObject({ signature: first, paid_tokens: '500010', excess_tokens: '250005' });
    const row = await s.db('payment_intents').where({ memo: intent.memo }).first();
    expect(row.signatures).toEqual({ counted: [first], after_completion: [second], late: [] });

    // The price is owed to the burn, under the completing signature, once; the excess stays on the intent to refund.
    expect(await receiptsFor(first)).toEqual([expect.objectContaining({ amount_tokens: 250_005, burn_id: null })]);
    expect(await receiptsFor(second)).toEqual([]);
    const again = await createPlanActivation(s.db, { planKeys: createPlanKeys, burnShareBps: 2500 }).activate(intent.memo, new Date());
    expect(again.firstTime).toBe(false);
    expect(await s.db('burn_obligations').where({ kind: 'payment_receipt', burn_id: null })).toHaveLength(1);
    expect(await s.db('api_key_plan_grants').where({ grant_id: `payment:${intent.memo}` })).toHaveLength(1);
  });
});
