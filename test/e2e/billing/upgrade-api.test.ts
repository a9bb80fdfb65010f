import net, { type AddressInfo } from 'node:net';
import { Client, Connection } from '@temporalio/client';
import { createPaymentIntentStarter } from '../../../workflows/billing/payment-intent-starter';
import { createApiKeyStore } from '../../../db/access/api-key-store';
import { DEFAULT_PAYMENT_TIMING, paymentWorkflowId } from '../../../workflows/billing/payment-intent-contract';
import { randomAddress, startTreasuryNode } from '../../fakes/solana-treasury-ledger';
import { call, startApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';
import { createTestDatabase } from '../../support/test-db';
import { readTestEnv } from '../../support/test-env';

const TREASURY = randomAddress();
const BASE = 'https://api.example.test';
let t: Awaited<ReturnType<typeof createTestDatabase>>;
let api: Awaited<ReturnType<typeof startApi>>;
let temporal: Connection;
const taskQueue = `upgrade-api-${process.pid}`; // no worker polls it: workflows are started, never run

beforeAll(async () => {
  t = await createTestDatabase();
  temporal = await Connection.connect({ address: readTestEnv().temporalAddress });
  api = await startApi(t.db, {
    env: { TREASURY_ADDRESS: TREASURY, PUBLIC_BASE_URL: BASE },
    overrides: { billing: { paymentStarter: createPaymentIntentStarter(new Client({ connection: temporal }), taskQueue, DEFAULT_PAYMENT_TIMING) } },
  });
});
afterAll(async () => {
  await api.close();
  await temporal.close();
  await t.drop();
});

const upgrade = (body: unknown, raw = false, url = api.url) =>
  call(`${url}/api/upgrade`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: raw ? (body as string) : JSON.stringify(body) });

describe('POST /api/upgrade', () => {
  it('creates an intent with a new key shown once, the exact amount, and links; its workflow is running', async () => {
    const r = await upgrade({});
    expect(r.status).toBe(200);
    expectConforms('post', '/api/upgrade', 200, r.body);
    expect(r.body).toMatchObject({
      status: 'pending',
      tier: 'pro',
      plan: 'monthly',
      amount_sol: 1,
      amount_lamports: 1_000_000_000,
      treasury: TREASURY,
      status_url: `/api/upgrade/${r.body.memo}`,
    });
    expect(r.body.memo).toMatch(/^lp-[1-9A-HJ-NP-Za-km-z]{22}$/);
    expect(r.body.api_key.startsWith(`${r.body.key_prefix}_`)).toBe(true);
    expect(new URL(r.body.deeplinks.solana_pay).searchParams.get('memo')).toBe(r.body.memo);
    expect(decodeURIComponent(r.body.deeplinks.phantom)).toContain(`${BASE}/pay/${r.body.memo}`);
    // The minted key is real, on the free tier until payment, and stored only as a hash.
    const key = await createApiKeyStore(t.db).findByPlaintext(r.body.api_key);
    expect(key).toMatchObject({ prefix: r.body.key_prefix, tier: 'free', source: 'upgrade', planExpiresAt: null });
    const row = await t.db('payment_intents').where({ memo: r.body.memo }).first();
    expect(row).toMatchObject({ key_id: key!.id, key_minted: true, status: 'pending', amount_lamports: 1_000_000_000 });
    expect(row.workflow_started_at).not.toBeNull();
    const wf = await new Client({ connection: temporal }).workflow.getHandle(paymentWorkflowId(r.body.memo)).describe();
    expect(wf.status.name).toBe('RUNNING');
    expect(wf.taskQueue).toBe(taskQueue);
  });

  it('prices every plan of spec section 8 and keeps contact details', async () => {
    for (const [tier, plan, sol] of [
      ['builder', 'monthly', 0.4],
      ['builder', 'yearly', 4],
      ['pro', 'yearly', 10],
    ] as const) {
      const r = await upgrade({ tier, plan, email: 'payer@example.com', telegram_id: 123456789 });
      expectConforms('post', '/api/upgrade', 200, r.body);
      expect(r.body).toMatchObject({ tier, plan, amount_sol: sol });
      expect(new URL(r.body.deeplinks.solana_pay).searchParams.get('amount')).toBe(String(sol));
      expect(await t.db('payment_intents').where({ memo: r.body.memo }).first()).toMatchObject({ email: 'payer@example.com', telegram_id: 123456789 });
    }
  });

  it('upgrades a supplied key without minting one, and refuses an unknown or revoked key with 422 on body.key', async () => {
    const store = createApiKeyStore(t.db);
    const k = await store.issueKey({ source: 'admin' });
    const r = await upgrade({ key: k.plaintext, tier: 'builder' });
    expectConforms('post', '/api/upgrade', 200, r.body);
    expect(r.body).toMatchObject({ api_key: null, key_prefix: k.prefix });
    expect(await t.db('payment_intents').where({ memo: r.body.memo }).first()).toMatchObject({ key_id: k.id, key_minted: false });

    const before = await t.db('payment_intents').count({ n: '*' }).first();
    for (const key of [`${k.prefix}_${'2'.repeat(44)}`, 'x'.repeat(40)]) {
      const bad = await upgrade({ key });
      expect(bad.status).toBe(422);
      expectConforms('post', '/api/upgrade', 422, bad.body);
      expect(bad.body.detail).toEqual([{ loc: ['body', 'key'], msg: 'unknown or revoked API key', type: 'value_error' }]);
      expect(JSON.stringify(bad.body)).not.toContain(key); // a secret is never echoed
    }
    await store.revoke(k.id);
    expect((await upgrade({ key: k.plaintext })).status).toBe(422);
    // A contract plan (no end) is not something a payment extends.
    const contract = await store.issueKey({ source: 'admin', tier: 'enterprise', customDailyQuota: 1_000_000 });
    const refused = await upgrade({ key: contract.plaintext });
    expect(refused.status).toBe(422);
    expect(refused.body.detail[0]).toMatchObject({ loc: ['body', 'key'], type: 'value_error' });
    expect(await t.db('payment_intents').count({ n: '*' }).first()).toEqual(before);
  });

  it('answers a clear 422, never a 5xx, for malformed bodies', async () => {
    const bodies: unknown[] = [
      { tier: 'enterprise' },
      { tier: 'free' },
      { plan: 'weekly' },
      { plan: 1 },
      { tier: null },
      { email: 'not-an-email' },
      { email: 'a@b.c'.padStart(300, 'x') },
      { telegram_id: 0 },
      { telegram_id: -5 },
      { telegram_id: 1.5 },
      { telegram_id: '123' },
      { telegram_id: 2 ** 60 },
      { key: 'short' },
      { key: 'k'.repeat(200) },
      { key: 42 },
      [],
      'pro',
      7,
      null,
      { tier: ['pro'] },
      { pay_with: 'btc' },
      { pay_with: 'TOKEN' },
      { pay_with: '' },
      { pay_with: null },
      { pay_with: 1 },
      { pay_with: ['token'] },
      { pay_with: { token: true } },
      { pay_with: 'sol ' },
    ];
    for (const b of bodies) {
      const r = await upgrade(b);
      expect([r.status, b]).toEqual([422, b]);
      expectConforms('post', '/api/upgrade', 422, r.body);
    }
    for (const raw of ['{', '{"tier":', 'tier=pro', '\u0000']) {
      const r = await upgrade(raw, true);
      expect([r.status, raw]).toEqual([422, raw]);
    }
    const noBody = await call(`${api.url}/api/upgrade`, { method: 'POST' });
    expect(noBody.status).toBe(422);
  });

  it('keeps a SOL intent as it was, and refuses pay_with token with 422 on body.pay_with where the token is not offered', async () => {
    const sol = await upgrade({ pay_with: 'sol', tier: 'builder' });
    expectConforms('post', '/api/upgrade', 200, sol.body);
    expect(sol.body).toMatchObject({ pay_with: 'sol', amount_tokens: null, token_mint: null, amount_sol: 0.4, amount_lamports: 400_000_000 });
    expect(new URL(sol.body.deeplinks.solana_pay).searchParams.has('spl-token')).toBe(false);

    const before = await t.db('payment_intents').count({ n: '*' }).first();
    const r = await upgrade({ pay_with: 'token' });
    expect(r.status).toBe(422);
    expectConforms('post', '/api/upgrade', 422, r.body);
    expect(r.body.detail).toEqual([{ loc: ['body', 'pay_with'], msg: expect.stringContaining('not offered'), type: 'value_error' }]);
    expect(await t.db('payment_intents').count({ n: '*' }).first()).toEqual(before);
  });

  it('still answers, and leaves the start to the outbox, when Temporal hangs', async () => {
    // A port that accepts connections and never answers: the start would wait forever without the starter's bound.
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => void sockets.push(socket));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const address = `127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const hung = new Client({ connection: Connection.lazy({ address, connectTimeout: 60_000, interceptors: [] }) });
    const other = await startApi(t.db, {
      env: { TREASURY_ADDRESS: TREASURY },
      overrides: { billing: { paymentStarter: createPaymentIntentStarter(hung, taskQueue, DEFAULT_PAYMENT_TIMING, { timeoutMs: 1000 }) } },
    });
    try {
      const r = await upgrade({ plan: 'yearly' }, false, other.url);
      expect(r.status).toBe(200);
      expect((await t.db('payment_intents').where({ memo: r.body.memo }).first()).workflow_started_at).toBeNull();
    } finally {
      await other.close();
      for (const socket of sockets) socket.destroy();
      silent.close();
      await hung.connection.close();
    }
  });

  it('answers 503 while no treasury is configured', async () => {
    const other = await startApi(t.db);
    try {
      const r = await upgrade({}, false, other.url);
      expect(r.status).toBe(503);
      expectConforms('post', '/api/upgrade', 503, r.body);
    } finally {
      await other.close();
    }
  });
});

describe('GET /api/upgrade/{memo} and the pay page', () => {
  it('shows a pending intent with nothing received, and never the key', async () => {
    const created = await upgrade({ tier: 'builder' });
    const r = await call(`${api.url}/api/upgrade/${created.body.memo}`);
    expect(r.status).toBe(200);
    expectConforms('get', '/api/upgrade/{memo}', 200, r.body);
    expect(r.body).toMatchObject({
      memo: created.body.memo,
      status: 'pending',
      amount_sol: 0.4,
      paid_sol: 0,
      paid_lamports: 0,
      excess_lamports: 0,
      activated_at: null,
      plan_expires_at: null,
      signature: null,
      key_prefix: created.body.key_prefix,
    });
    expect(r.body.deeplinks).toEqual(created.body.deeplinks);
    expect(JSON.stringify(r.body)).not.toContain(created.body.api_key);

    const page = await call(`${api.url}/pay/${created.body.memo}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.body).toContain('0.4 SOL');
    expect(page.body).toContain(TREASURY);
    expect(page.body).not.toContain(created.body.api_key);
  });

  it('answers 404 for an unknown memo and 422 for a malformed one', async () => {
    const unknown = await call(`${api.url}/api/upgrade/lp-1111111111111111111111`);
    expect(unknown.status).toBe(404);
    expectConforms('get', '/api/upgrade/{memo}', 404, unknown.body);
    for (const memo of ['short', 'a'.repeat(65), 'bad%20memo', 'semi;colon', '%00%00%00%00%00%00%00%00']) {
      const r = await call(`${api.url}/api/upgrade/${memo}`);
      expect([r.status, memo]).toEqual([422, memo]);
      expectConforms('get', '/api/upgrade/{memo}', 422, r.body);
    }
    expect((await call(`${api.url}/pay/%3Cscript%3E`)).status).toBe(404);
  });
});

describe('POST /api/upgrade with pay_with token', () => {
  const MINT = randomAddress();

  it('prices the plan in the holder token, exactly, and links a Solana Pay request with spl-token', async () => {
    const node = await startTreasuryNode(TREASURY, { mint: MINT, decimals: 6 });
    const other = await startApi(t.db, {
      env: { TREASURY_ADDRESS: TREASURY, PUBLIC_BASE_URL: BASE, HOLDER_TOKEN_MINT: MINT, TOKEN_PAYMENT_TOKENS_PER_SOL: '12345.678', HOLDER_RPC_URL: node.url },
    });
    try {
      const r = await upgrade({ pay_with: 'token', tier: 'builder', plan: 'monthly' }, false, other.url);
      expect(r.status).toBe(200);
      expectConforms('post', '/api/upgrade', 200, r.body);
      // 0.4 SOL × 12,345.678 tokens per SOL.
      expect(r.body).toMatchObject({
        pay_with: 'token',
        amount_tokens: '4938.2712',
        token_mint: MINT,
        amount_sol: 0.4,
        amount_lamports: 400_000_000,
        treasury: TREASURY,
      });
      const pay = new URL(r.body.deeplinks.solana_pay);
      expect(pay.pathname).toBe(TREASURY);
      expect(Object.fromEntries(pay.searchParams)).toMatchObject({ amount: '4938.2712', 'spl-token': MINT, memo: r.body.memo });
      expect(await t.db('payment_intents').where({ memo: r.body.memo }).first()).toMatchObject({
        pay_with: 'token',
        token_mint: MINT,
        token_decimals: 6,
        amount_tokens_raw: 4_938_271_200,
      });

      const st = await call(`${other.url}/api/upgrade/${r.body.memo}`);
      expectConforms('get', '/api/upgrade/{memo}', 200, st.body);
      expect(st.body).toMatchObject({
        pay_with: 'token',
        amount_tokens: '4938.2712',
        token_mint: MINT,
        paid_tokens: '0',
        excess_tokens: '0',
        paid_sol: 0,
        status: 'pending',
      });
      expect(st.body.deeplinks).toEqual(r.body.deeplinks);
      const page = await call(`${other.url}/pay/${r.body.memo}`);
      expect(page.body).toContain(`4938.2712 tokens of ${MINT}`);
    } finally {
      await other.close();
      await node.close();
    }
  });

  it('answers 503 while the mint cannot be read, and creates no intent', async () => {
    const node = await startTreasuryNode(TREASURY); // a node that knows no such mint
    const other = await startApi(t.db, {
      env: { TREASURY_ADDRESS: TREASURY, HOLDER_TOKEN_MINT: MINT, TOKEN_PAYMENT_TOKENS_PER_SOL: '1000', HOLDER_RPC_URL: node.url },
    });
    try {
      const before = await t.db('payment_intents').count({ n: '*' }).first();
      const r = await upgrade({ pay_with: 'token' }, false, other.url);
      expect(r.status).toBe(503);
      expectConforms('post', '/api/upgrade', 503, r.body);
      expect(r.headers.get('retry-after')).toBe('30');
      expect(await t.db('payment_intents').count({ n: '*' }).first()).toEqual(before);
    } finally {
      await other.close();
      await node.close();
    }
  });
});
