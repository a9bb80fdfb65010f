import net, { type AddressInfo } from 'node:net';
import { Client, Connection } from '@temporalio/client';
import { createPaymentIntentStarter } from '../../../workflows/billing/payment-intent-starter';
import { createApiKeyStore } from '../../../db/access/api-key-store';
import { DEFAULT_PAYMENT_TIMING, paymentWorkflowId } from '../../../workflows/billing/payment-intent-contract';
import { randomAddress, startTreasuryNode } from '../../fakes/solana-treasury-ledger';
import { call, startApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';
import { typedApi, validationError } from '../../support/typed-api';
import type { Schemas } from '../../../clients/api/api-client';
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

/**
 * POST /api/upgrade through the typed client. The spec lets every field with a default be left out, but
 * openapi-typescript types those as required (defaultNonNullable), so the body is a Partial of the request type.
 */
const upgrade = (body: Partial<Schemas['UpgradeRequest']>, url = api.url) => typedApi(url).POST('/api/upgrade', { body: body as Schemas['UpgradeRequest'] });
/** Bodies the types forbid (a wrong type, not an object, not JSON): raw HTTP, the 422 checked against openapi.yaml. */
const rawUpgrade = (body: string) => call(`${api.url}/api/upgrade`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
const http = typedApi(() => api.url);

describe('POST /api/upgrade', () => {
  it('creates an intent with a new key shown once, the exact amount, and links; its workflow is running', async () => {
    const res = await upgrade({});
    expect(res.response.status).toBe(200);
    const r = { body: res.data! };
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
    expect(r.body.api_key!.startsWith(`${r.body.key_prefix}_`)).toBe(true);
    expect(new URL(r.body.deeplinks.solana_pay).searchParams.get('memo')).toBe(r.body.memo);
    expect(decodeURIComponent(r.body.deeplinks.phantom)).toContain(`${BASE}/pay/${r.body.memo}`);
    // The minted key is real, on the free tier until payment, and stored only as a hash.
    const key = await createApiKeyStore(t.db).findByPlaintext(r.body.api_key!);
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
      expect(r.response.status).toBe(200);
      expect(r.data).toMatchObject({ tier, plan, amount_sol: sol });
      expect(new URL(r.data!.deeplinks.solana_pay).searchParams.get('amount')).toBe(String(sol));
      expect(await t.db('payment_intents').where({ memo: r.data!.memo }).first()).toMatchObject({ email: 'payer@example.com', telegram_id: 123456789 });
    }
  });

  it('upgrades a supplied key without minting one, and refuses an unknown or revoked key with 422 on body.key', async () => {
    const store = createApiKeyStore(t.db);
    const k = await store.issueKey({ source: 'admin' });
    const r = await upgrade({ key: k.plaintext, tier: 'builder' });
    expect(r.response.status).toBe(200);
    expect(r.data).toMatchObject({ api_key: null, key_prefix: k.prefix });
    expect(await t.db('payment_intents').where({ memo: r.data!.memo }).first()).toMatchObject({ key_id: k.id, key_minted: false });

    const before = await t.db('payment_intents').count({ n: '*' }).first();
    for (const key of [`${k.prefix}_${'2'.repeat(44)}`, 'x'.repeat(40)]) {
      const bad = await upgrade({ key });
      expect(bad.response.status).toBe(422);
      expect(validationError(bad.error).detail).toEqual([{ loc: ['body', 'key'], msg: 'unknown or revoked API key', type: 'value_error' }]);
      expect(JSON.stringify(bad.error)).not.toContain(key); // a secret is never echoed
    }
    await store.revoke(k.id);
    expect((await upgrade({ key: k.plaintext })).response.status).toBe(422);
    // A contract plan (no end) is not something a payment extends.
    const contract = await store.issueKey({ source: 'admin', tier: 'enterprise', customDailyQuota: 1_000_000 });
    const refused = await upgrade({ key: contract.plaintext });
    expect(refused.response.status).toBe(422);
    expect(validationError(refused.error).detail[0]).toMatchObject({ loc: ['body', 'key'], type: 'value_error' });
    expect(await t.db('payment_intents').count({ n: '*' }).first()).toEqual(before);
  });

  it('answers a clear 422, never a 5xx, for malformed bodies', async () => {
    // Bodies the types allow, wrong by value.
    const typed: Partial<Schemas['UpgradeRequest']>[] = [
      { email: 'not-an-email' },
      { email: 'a@b.c'.padStart(300, 'x') },
      { telegram_id: 0 },
      { telegram_id: -5 },
      { telegram_id: 1.5 },
      { telegram_id: 2 ** 60 },
      { key: 'short' },
      { key: 'k'.repeat(200) },
      { key: 42 },
    ];
    for (const b of typed) {
      const r = await upgrade(b);
      expect([r.response.status, b]).toEqual([422, b]);
    }
    // Bodies the types forbid: raw HTTP.
    const bodies: unknown[] = [
      { tier: 'enterprise' },
      { tier: 'free' },
      { plan: 'weekly' },
      { plan: 1 },
      { tier: null },
      { telegram_id: '123' },
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
      const r = await rawUpgrade(JSON.stringify(b));
      expect([r.status, b]).toEqual([422, b]);
      expectConforms('post', '/api/upgrade', 422, r.body);
    }
    for (const raw of ['{', '{"tier":', 'tier=pro', '\u0000']) {
      const r = await rawUpgrade(raw);
      expect([r.status, raw]).toEqual([422, raw]);
      expectConforms('post', '/api/upgrade', 422, r.body);
    }
    const noBody = await call(`${api.url}/api/upgrade`, { method: 'POST' });
    expect(noBody.status).toBe(422);
    expectConforms('post', '/api/upgrade', 422, noBody.body);
  });

  it('keeps a SOL intent as it was, and refuses pay_with token with 422 on body.pay_with where the token is not offered', async () => {
    const sol = await upgrade({ pay_with: 'sol', tier: 'builder' });
    expect(sol.response.status).toBe(200);
    expect(sol.data).toMatchObject({ pay_with: 'sol', amount_tokens: null, token_mint: null, amount_sol: 0.4, amount_lamports: 400_000_000 });
    expect(new URL(sol.data!.deeplinks.solana_pay).searchParams.has('spl-token')).toBe(false);

    const before = await t.db('payment_intents').count({ n: '*' }).first();
    const r = await upgrade({ pay_with: 'token' });
    expect(r.response.status).toBe(422);
    expect(validationError(r.error).detail).toEqual([{ loc: ['body', 'pay_with'], msg: expect.stringContaining('not offered'), type: 'value_error' }]);
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
      const r = await upgrade({ plan: 'yearly' }, other.url);
      expect(r.response.status).toBe(200);
      expect((await t.db('payment_intents').where({ memo: r.data!.memo }).first()).workflow_started_at).toBeNull();
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
      const r = await upgrade({}, other.url);
      expect(r.response.status).toBe(503);
      // The reason also under the published CLI's name for it (detail.error), which the CLI prints.
      expect(r.error).toMatchObject({ error: 'unavailable', detail: { error: expect.stringContaining('TREASURY_ADDRESS') } });
      const body = r.error as unknown as { message: string; detail: { error: string } };
      expect(body.detail.error).toBe(body.message);
    } finally {
      await other.close();
    }
  });
});

describe('GET /api/upgrade/{memo} and the pay page', () => {
  it('shows a pending intent with nothing received, and never the key', async () => {
    const made = await upgrade({ tier: 'builder' });
    expect(made.response.status).toBe(200);
    const created = { body: made.data! };
    const res = await http.GET('/api/upgrade/{memo}', { params: { path: { memo: created.body.memo } } });
    expect(res.response.status).toBe(200);
    const r = { body: res.data! };
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
    expect(JSON.stringify(r.body)).not.toContain(created.body.api_key!);

    // The pay page is HTML, outside the JSON client.
    const page = await call(`${api.url}/pay/${created.body.memo}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.body).toContain('0.4 SOL');
    expect(page.body).toContain(TREASURY);
    expect(page.body).not.toContain(created.body.api_key!);
  });

  it('answers 404 for an unknown memo and 422 for a malformed one', async () => {
    const unknown = await http.GET('/api/upgrade/{memo}', { params: { path: { memo: 'lp-1111111111111111111111' } } });
    expect(unknown.response.status).toBe(404);
    for (const memo of ['short', 'a'.repeat(65), 'bad memo', '\u0000'.repeat(8)]) {
      const r = await http.GET('/api/upgrade/{memo}', { params: { path: { memo } } });
      expect([r.response.status, memo]).toEqual([422, memo]);
    }
    // Path bytes as a hand-made URL has them (a bare ';', pre-encoded NULs), which the client would encode otherwise.
    for (const memo of ['semi;colon', '%00%00%00%00%00%00%00%00']) {
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
      const res = await upgrade({ pay_with: 'token', tier: 'builder', plan: 'monthly' }, other.url);
      expect(res.response.status).toBe(200);
      const r = { body: res.data! };
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

      const got = await typedApi(other.url).GET('/api/upgrade/{memo}', { params: { path: { memo: r.body.memo } } });
      expect(got.response.status).toBe(200);
      const st = { body: got.data! };
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
      const r = await upgrade({ pay_with: 'token' }, other.url);
      expect(r.response.status).toBe(503);
      expect(r.response.headers.get('retry-after')).toBe('30');
      expect(await t.db('payment_intents').count({ n: '*' }).first()).toEqual(before);
    } finally {
      await other.close();
      await node.close();
    }
  });
});
