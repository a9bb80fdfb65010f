import { recordVerifiedBurn } from '../../../activities/billing/burn-recorder';
import { createBurnReader } from '../../../clients/solana/burn-transaction';
import { createApiKeyStore } from '../../../db/access/api-key-store';
import { createBurnStore } from '../../../db/billing/burn-store';
import { createPaymentIntentStore } from '../../../db/billing/payment-intent-store';
import { createPlanActivation } from '../../../db/billing/plan-activation';
import { createPlanKeys } from '../../../db/billing/plan-keys';
import { decidePayment } from '../../../domain/billing/payment-matching';
import { memoFromRandomBytes } from '../../../domain/billing/payment-memo';
import { planPriceLamports, type Plan, type PurchasableTier } from '../../../domain/billing/pricing';
import { randomAddress, startTreasuryNode, type TreasuryNode } from '../../fakes/solana-treasury-ledger';
import { call, startApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';
import { errorLocs, typedApi } from '../../support/typed-api';
import { createTestDatabase } from '../../support/test-db';
import { randomBytes } from 'node:crypto';

const TREASURY = randomAddress();
const MINT = randomAddress();
let t: Awaited<ReturnType<typeof createTestDatabase>>;
let api: Awaited<ReturnType<typeof startApi>>;
let node: TreasuryNode;
const http = typedApi(() => api.url);

beforeAll(async () => {
  t = await createTestDatabase();
  node = await startTreasuryNode(TREASURY);
  api = await startApi(t.db, { env: { TREASURY_ADDRESS: TREASURY, HOLDER_TOKEN_MINT: MINT } });
});
afterAll(async () => {
  await api.close();
  await node.close();
  await t.drop();
});

/** A paid intent activated at `at`, as the payment workflow's activities leave it. */
async function activatedPlan(tier: PurchasableTier, plan: Plan, at: Date) {
  const key = await createApiKeyStore(t.db).issueKey({ source: 'upgrade' });
  const memo = memoFromRandomBytes(randomBytes(16));
  const amountLamports = planPriceLamports(tier, plan);
  const intents = createPaymentIntentStore(t.db);
  await intents.insert({
    memo,
    tier,
    plan,
    amountLamports,
    payWith: 'sol',
    token: null,
    treasury: TREASURY,
    keyId: key.id,
    keyPrefix: key.prefix,
    keyMinted: true,
    email: null,
    telegramId: null,
    createdAt: at,
    expiresAt: new Date(at.getTime() + 3600_000),
  });
  const decision = decidePayment({ amountUnits: amountLamports, expiresAt: new Date(at.getTime() + 3600_000) }, [
    { signature: 'x'.repeat(64), slot: 1, blockTime: at, seenAt: at, units: amountLamports },
  ]);
  await intents.recordDecision(memo, 'sol', decision, 'paid', at);
  return createPlanActivation(t.db, { planKeys: createPlanKeys, burnShareBps: 2000 }).activate(memo, at);
}

const pending = async () => {
  const r = await http.GET('/api/burn/pending');
  expect(r.response.status).toBe(200);
  return r.data!;
};
const history = async (limit?: number) => {
  const r = await http.GET('/api/burn/history', { params: { query: limit === undefined ? {} : { limit } } });
  expect(r.response.status).toBe(200);
  return r.data!;
};
const recorder = () => ({
  reader: createBurnReader({ url: node.url, timeoutMs: 2000 }),
  burnStore: createBurnStore(t.db),
  tokenMint: MINT,
  now: () => new Date(),
});

describe('burns: revenue commitments from activated plans, executed burns verified on chain', () => {
  it('owes nothing before any plan was paid', async () => {
    expect(await pending()).toMatchObject({ token_mint: MINT, total_tokens: 0, total_sol: 0, count: 0, items: [] });
    expect(await history()).toEqual({ token_mint: MINT, count: 0, burns: [] });
  });

  it('pools each week’s share of activated plans into one commitment due when the week ends', async () => {
    await activatedPlan('pro', 'monthly', new Date('2026-11-24T10:00:00Z')); // 1 SOL → 0.2
    await activatedPlan('builder', 'yearly', new Date('2026-11-29T23:00:00Z')); // 4 SOL → 0.8, same week
    await activatedPlan('builder', 'monthly', new Date('2026-11-30T01:00:00Z')); // 0.4 SOL → 0.08, next week
    const p = await pending();
    expect(p).toMatchObject({ count: 2, total_sol: 1.08, total_tokens: 0 });
    expect(p.items).toEqual([
      expect.objectContaining({
        kind: 'revenue_commitment',
        amount_sol: 1,
        amount_tokens: null,
        period_start: '2026-11-23',
        due_at: '2026-11-30T00:00:00.000Z',
        source_signature: null,
      }),
      expect.objectContaining({ kind: 'revenue_commitment', amount_sol: 0.08, period_start: '2026-11-30', due_at: '2026-12-07T00:00:00.000Z' }),
    ]);
  });

  it('records an executed burn only as the chain shows it, settles the commitment, and lists it in the history', async () => {
    const week = (await pending()).items[0]!;
    const other = node.ledger.burn({ mint: randomAddress(), amountRaw: 5_000_000n, decimals: 6 });
    await expect(recordVerifiedBurn(recorder(), { signature: other, kind: 'revenue_commitment', settles: [week.id] })).rejects.toThrow(/burned no/);
    const failed = node.ledger.burn({ mint: MINT, amountRaw: 5_000_000n, decimals: 6, err: { InstructionError: [0, { Custom: 1 }] } });
    await expect(recordVerifiedBurn(recorder(), { signature: failed, kind: 'revenue_commitment', settles: [week.id] })).rejects.toThrow(/failed/);

    const sig = node.ledger.burn({ mint: MINT, amountRaw: 1_234_567_890_123n, decimals: 6, blockTime: 1_796_000_000 });
    const r = await recordVerifiedBurn(recorder(), { signature: sig, kind: 'revenue_commitment', settles: [week.id] });
    expect(r).toMatchObject({ inserted: true, amountTokens: 1_234_567.890123 });
    // Recording the same transaction again changes nothing.
    expect(await recordVerifiedBurn(recorder(), { signature: sig, kind: 'revenue_commitment', settles: [week.id] })).toMatchObject({
      id: r.id,
      inserted: false,
    });

    const h = await history();
    expect(h).toMatchObject({
      token_mint: MINT,
      count: 1,
      burns: [
        { id: r.id, kind: 'revenue_commitment', amount_tokens: 1_234_567.890123, signature: sig, executed_at: new Date(1_796_000_000_000).toISOString() },
      ],
    });
    expect(h.burns[0]!.slot).toBeGreaterThan(0);
    const p = await pending();
    expect(p.items.map((i) => i.id)).not.toContain(week.id);
    expect(p.count).toBe(1);

    // A later activation in the settled week opens a new commitment rather than growing the settled one.
    await activatedPlan('pro', 'monthly', new Date('2026-11-25T12:00:00Z'));
    expect((await pending()).items).toEqual(expect.arrayContaining([expect.objectContaining({ period_start: '2026-11-23', amount_sol: 0.2 })]));
  });

  it('reads a raw `burn` (no decimals in the instruction) with the decimals of the token balances', async () => {
    const sig = node.ledger.burn({ mint: MINT, amountRaw: 42_000_000n, decimals: 6, checked: false });
    expect(await createBurnReader({ url: node.url }).burn(sig, MINT)).toMatchObject({
      found: true,
      burn: { amountRaw: 42_000_000n, decimals: 6, amountTokens: 42 },
    });
    expect(await createBurnReader({ url: node.url }).burn('1'.repeat(88), MINT)).toEqual({ found: false });
  });

  it('refuses to settle obligations that are not open, and bounds the history limit', async () => {
    const sig = node.ledger.burn({ mint: MINT, amountRaw: 1_000_000n, decimals: 6 });
    await expect(recordVerifiedBurn(recorder(), { signature: sig, kind: 'payment_receipt', settles: [999_999] })).rejects.toThrow(/not open/);
    expect((await history()).count).toBe(1);
    // The spec gives limit no maximum: a larger one is served, capped inside.
    expect((await http.GET('/api/burn/history', { params: { query: { limit: 501 } } })).response.status).toBe(200);
    for (const limit of [0, 1.5]) {
      const r = await http.GET('/api/burn/history', { params: { query: { limit } } });
      expect([limit, r.response.status]).toEqual([limit, 422]);
      expect(errorLocs(r.error)).toEqual(['query.limit']);
    }
    // limit=abc is input the types forbid: raw HTTP, its 422 checked against openapi.yaml.
    const abc = await call(`${api.url}/api/burn/history?limit=abc`);
    expect(abc.status).toBe(422);
    expectConforms('get', '/api/burn/history', 422, abc.body);
    expect((await history(1)).burns).toHaveLength(1);
  });
});
