import { createHolderBalanceClient } from '../../../clients/solana/holder-balance-client';
import { walletLinkMessage } from '../../../domain/access/wallet-proof';
import { HOLDER_RECHECK_WORKFLOW } from '../../../workflows/access/holder-recheck-contract';
import { walletSignupWorkflowId } from '../../../workflows/access/wallet-signup-contract';
import { startSolanaRpcServer, type SolanaRpcFake } from '../../fakes/solana-rpc-server';
import { issueTestKey } from '../../support/access-keys';
import { afterBeta, call, startApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';
import { installHolderToken, TEST_HOLDER_MINT, type HolderToken } from '../../support/holder-token-rpc';
import { createTestDatabase } from '../../support/test-db';
import { testWallet } from '../../support/test-wallet';
import { startWorker, uniqueId } from '../../support/worker-harness';

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let w: Awaited<ReturnType<typeof startWorker>>;
let api: Awaited<ReturnType<typeof startApi>>;
let rpc: SolanaRpcFake;
let holder: HolderToken;
const KEY_VISIBLE_S = 3;

async function startApiWithTtl(ttlS: number) {
  const holderBalances = createHolderBalanceClient({ rpcUrl: rpc.url, mint: TEST_HOLDER_MINT, timeoutMs: 2000 });
  return startApi(t.db, {
    env: afterBeta({ keyCacheTtlMs: 0 }),
    temporal: { client: w.client, taskQueue: w.taskQueue },
    // Signup windows and key reveals of seconds, below what WALLET_SIGNUP_TTL_S allows.
    overrides: { access: { holderBalances, signupTtlS: ttlS, keyVisibleS: KEY_VISIBLE_S } },
  });
}

beforeAll(async () => {
  t = await createTestDatabase();
  rpc = await startSolanaRpcServer({ programId: '6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P' });
  holder = installHolderToken(rpc);
  w = await startWorker(t.db, {
    overrides: { access: { holderBalances: createHolderBalanceClient({ rpcUrl: rpc.url, mint: TEST_HOLDER_MINT, timeoutMs: 2000 }) } },
  });
  api = await startApiWithTtl(600);
});
afterAll(async () => {
  await api.close();
  await w.stop();
  await rpc.close();
  await t.drop();
});

const post = (base: string, path: string, body: unknown) =>
  call(base + path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
const poll = (base: string, linkId: string) => call(`${base}/api/signup/wallet/${linkId}`);
const finished = (linkId: string) => w.client.workflow.getHandle(walletSignupWorkflowId(linkId)).result();

describe('holder signup: init → sign → poll, one workflow per link', () => {
  it('mints a key for a 2.5M holder, shows it for the reveal window only, then withholds it', async () => {
    const wallet = testWallet();
    holder.setBalance(wallet.address, 2_600_000);
    const init = await post(api.url, '/api/signup/wallet/init', { wallet: wallet.address, tier: 'api' });
    expect(init.status).toBe(200);
    expectConforms('post', '/api/signup/wallet/init', 200, init.body);
    expect(init.body).toMatchObject({
      status: 'pending',
      wallet: wallet.address,
      tier: 'api',
      threshold: 2_500_000,
      balance: null,
      api_key: null,
      key_prefix: null,
    });
    const linkId: string = init.body.link_id;
    expect(init.body.message).toContain(linkId);

    // A signature over anything but this link's message is refused and the link stays pending.
    const bad = await post(api.url, '/api/signup/wallet/sign', { link_id: linkId, signature: wallet.sign(`${init.body.message}!`) });
    expect(bad.status).toBe(422);
    expectConforms('post', '/api/signup/wallet/sign', 422, bad.body);
    expect(bad.body.detail[0].loc).toEqual(['body', 'signature']);
    expect((await poll(api.url, linkId)).body.status).toBe('pending');

    const signed = await post(api.url, '/api/signup/wallet/sign', { link_id: linkId, signature: wallet.sign(init.body.message) });
    expect(signed.status).toBe(200);
    expectConforms('post', '/api/signup/wallet/sign', 200, signed.body);
    expect(signed.body).toMatchObject({ status: 'fulfilled', balance: 2_600_000, api_key: null });
    expect(signed.body.key_prefix).toMatch(/^lp_live_/);

    const shown = await poll(api.url, linkId);
    expectConforms('get', '/api/signup/wallet/{link_id}', 200, shown.body);
    expect(shown.body.api_key).toMatch(new RegExp(`^${signed.body.key_prefix}_`));
    const me = await call(`${api.url}/api/me`, { headers: { 'X-API-Key': shown.body.api_key } });
    expect(me.body).toMatchObject({ key_prefix: signed.body.key_prefix, tier: 'builder', holder_access: 'api', linked_wallet: wallet.address });
    // Never stored in plaintext: the row holds only the sealed copy.
    const row = await t.db('wallet_links').where({ link_id: linkId }).first();
    expect(Buffer.from(row.key_ciphertext).toString('latin1')).not.toContain(shown.body.api_key.split('_').pop());

    // Signing again mints nothing more.
    expect((await post(api.url, '/api/signup/wallet/sign', { link_id: linkId, signature: wallet.sign(init.body.message) })).body.status).toBe('fulfilled');
    expect(await t.db('api_keys').where({ wallet: wallet.address, source: 'wallet_signup' }).count('* as n').first()).toEqual({ n: 1 });

    expect(await finished(linkId)).toEqual({ status: 'fulfilled' });
    await w.maybeRecordHistory(walletSignupWorkflowId(linkId), 'wallet-signup-fulfilled');
    const after = await poll(api.url, linkId);
    expectConforms('get', '/api/signup/wallet/{link_id}', 200, after.body);
    expect(after.body).toMatchObject({ status: 'fulfilled', api_key: null, key_prefix: signed.body.key_prefix });
    expect((await t.db('wallet_links').where({ link_id: linkId }).first()).key_ciphertext).toBeNull();
    // The key stays valid after it is withheld.
    expect((await call(`${api.url}/api/me`, { headers: { 'X-API-Key': shown.body.api_key } })).status).toBe(200);
  });

  it('a balance below the threshold makes the link insufficient_balance (ineligible in the store), and it stays so', async () => {
    const wallet = testWallet();
    holder.setBalance(wallet.address, 400_000);
    const init = await post(api.url, '/api/signup/wallet/init', { wallet: wallet.address, tier: 'signals' });
    const r = await post(api.url, '/api/signup/wallet/sign', { link_id: init.body.link_id, signature: wallet.sign(init.body.message) });
    expect(r.body).toMatchObject({ status: 'insufficient_balance', balance: 400_000, threshold: 500_000, key_prefix: null });
    holder.setBalance(wallet.address, 900_000);
    expect((await post(api.url, '/api/signup/wallet/sign', { link_id: init.body.link_id, signature: wallet.sign(init.body.message) })).body.status).toBe(
      'insufficient_balance',
    );
    expect(await finished(init.body.link_id)).toEqual({ status: 'ineligible' });
  });

  it('a link nobody signs in time expires; signing later changes nothing; unknown links are 404', async () => {
    const short = await startApiWithTtl(2);
    try {
      const wallet = testWallet();
      holder.setBalance(wallet.address, 5_000_000);
      const init = await post(short.url, '/api/signup/wallet/init', { wallet: wallet.address, tier: 'api' });
      expect(await finished(init.body.link_id)).toEqual({ status: 'expired' });
      await w.maybeRecordHistory(walletSignupWorkflowId(init.body.link_id), 'wallet-signup-expired');
      const late = await post(short.url, '/api/signup/wallet/sign', { link_id: init.body.link_id, signature: wallet.sign(init.body.message) });
      expect(late.status).toBe(200);
      expect(late.body).toMatchObject({ status: 'expired', api_key: null, key_prefix: null });
      const missing = await poll(short.url, 'no-such-link-123');
      expect(missing.status).toBe(404);
      expectConforms('get', '/api/signup/wallet/{link_id}', 404, missing.body);
      expect((await post(short.url, '/api/signup/wallet/sign', { link_id: 'no-such-link-123', signature: wallet.sign('x') })).status).toBe(404);
    } finally {
      await short.close();
    }
  });

  it('an unreadable balance answers 503 and leaves the link pending for another signature', async () => {
    const wallet = testWallet();
    holder.setBalance(wallet.address, 3_000_000);
    const init = await post(api.url, '/api/signup/wallet/init', { wallet: wallet.address, tier: 'api' });
    holder.setDown(true);
    try {
      const r = await post(api.url, '/api/signup/wallet/sign', { link_id: init.body.link_id, signature: wallet.sign(init.body.message) });
      expect(r.status).toBe(503);
      expectConforms('post', '/api/signup/wallet/sign', 503, r.body);
    } finally {
      holder.setDown(false);
    }
    const ok = await post(api.url, '/api/signup/wallet/sign', { link_id: init.body.link_id, signature: wallet.sign(init.body.message) });
    expect(ok.body.status).toBe('fulfilled');
  });
});

describe('one holder wallet backs one key at a time, across signup and link', () => {
  const signUp = async (wallet: ReturnType<typeof testWallet>) => {
    const init = await post(api.url, '/api/signup/wallet/init', { wallet: wallet.address, tier: 'api' });
    const signed = await post(api.url, '/api/signup/wallet/sign', { link_id: init.body.link_id, signature: wallet.sign(init.body.message) });
    expect(signed.body.status).toBe('fulfilled');
    return { 'X-API-Key': (await poll(api.url, init.body.link_id)).body.api_key as string };
  };
  const me = async (headers: Record<string, string>) => (await call(`${api.url}/api/me`, { headers })).body;

  it('a second signup or a link elsewhere moves the credit; the key it left is Free again', async () => {
    const wallet = testWallet();
    holder.setBalance(wallet.address, 3_000_000);
    const first = await signUp(wallet);
    expect(await me(first)).toMatchObject({ tier: 'builder', linked_wallet: wallet.address });

    // Signup again with the same wallet: a new key, and the first one no longer holds the wallet.
    const second = await signUp(wallet);
    expect(await me(second)).toMatchObject({ tier: 'builder', linked_wallet: wallet.address });
    expect(await me(first)).toMatchObject({ tier: 'free', linked_wallet: null, holder_token_balance: null, holder_access: null });

    // Link the same wallet to an existing key: the credit moves there from the signup key.
    const k = await issueTestKey(t.db, 'free');
    const linked = await call(`${api.url}/api/v1/wallet/link`, {
      method: 'POST',
      headers: { ...k.bearer, 'Content-Type': 'application/json' },
      body: JSON.stringify({ wallet: wallet.address, signature_b58: wallet.sign(walletLinkMessage(k.prefix, wallet.address)), key_prefix: k.prefix }),
    });
    expect(linked.body).toMatchObject({ wallet: wallet.address, tier: 'builder' });
    expect(await me(second)).toMatchObject({ tier: 'free', linked_wallet: null });

    // And a signup takes it back from the linked key.
    const third = await signUp(wallet);
    expect(await me(third)).toMatchObject({ tier: 'builder', linked_wallet: wallet.address });
    expect(await me(k.bearer)).toMatchObject({ tier: 'free', linked_wallet: null });
    expect(await t.db('api_keys').where({ wallet: wallet.address }).whereNull('revoked_at').count('* as n').first()).toEqual({ n: 1 });
  });
});

describe('holder re-check schedule: access follows holdings', () => {
  it('reverts a key to Free after a sale and upgrades it again when the tokens come back', async () => {
    const k = await issueTestKey(t.db, 'free');
    const wallet = testWallet();
    holder.setBalance(wallet.address, 3_000_000);
    const linked = await call(`${api.url}/api/v1/wallet/link`, {
      method: 'POST',
      headers: { ...k.bearer, 'Content-Type': 'application/json' },
      body: JSON.stringify({ wallet: wallet.address, signature_b58: wallet.sign(walletLinkMessage(k.prefix, wallet.address)), key_prefix: k.prefix }),
    });
    expect(linked.body.tier).toBe('builder');

    const recheck = async (name: string) => {
      const workflowId = uniqueId('holder-recheck');
      const result = await w.client.workflow.execute(HOLDER_RECHECK_WORKFLOW, { taskQueue: w.taskQueue, workflowId });
      await w.maybeRecordHistory(workflowId, name);
      return result;
    };
    holder.setBalance(wallet.address, 10);
    const sold = await recheck('holder-recheck-sold');
    expect(sold.checked).toBeGreaterThanOrEqual(1);
    expect(sold.failed).toBe(0);
    const me = await call(`${api.url}/api/me`, { headers: k.bearer });
    expectConforms('get', '/api/me', 200, me.body);
    expect(me.body).toMatchObject({ tier: 'free', holder_token_balance: 10, holder_access: null });
    expect((await call(`${api.url}/api/v1/stats`, { headers: k.bearer })).status).toBe(403);

    holder.setBalance(wallet.address, 2_500_000);
    await recheck('holder-recheck-held');
    expect((await call(`${api.url}/api/me`, { headers: k.bearer })).body).toMatchObject({ tier: 'builder', holder_access: 'api' });

    // While the RPC is down the last credited balance stands.
    holder.setDown(true);
    try {
      const down = await recheck('holder-recheck-rpc-down');
      expect(down.failed).toBeGreaterThanOrEqual(1);
    } finally {
      holder.setDown(false);
    }
    expect((await call(`${api.url}/api/me`, { headers: k.bearer })).body.tier).toBe('builder');
  });
});
