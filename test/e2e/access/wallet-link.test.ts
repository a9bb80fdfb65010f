import { createHolderBalanceClient } from '../../../clients/solana/holder-balance-client';
import { walletLinkMessage } from '../../../domain/access/wallet-proof';
import { startSolanaRpcServer, type SolanaRpcFake } from '../../fakes/solana-rpc-server';
import { issueTestKey } from '../../support/access-keys';
import { afterBeta, startApi } from '../../support/api-harness';
import { installHolderToken, TEST_HOLDER_MINT, type HolderToken } from '../../support/holder-token-rpc';
import { createTestDatabase } from '../../support/test-db';
import { testWallet } from '../../support/test-wallet';
import { errorLocs, typedApi } from '../../support/typed-api';
import type { Schemas } from '../../../clients/api/api-client';

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let api: Awaited<ReturnType<typeof startApi>>;
let rpc: SolanaRpcFake;
let holder: HolderToken;

beforeAll(async () => {
  t = await createTestDatabase();
  rpc = await startSolanaRpcServer({ programId: '6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P' });
  holder = installHolderToken(rpc);
  api = await startApi(t.db, {
    env: afterBeta({ keyCacheTtlMs: 0 }),
    overrides: { access: { holderBalances: createHolderBalanceClient({ rpcUrl: rpc.url, mint: TEST_HOLDER_MINT, timeoutMs: 2000 }) } },
  });
});
afterAll(async () => {
  await api.close();
  await rpc.close();
  await t.drop();
});

// The key of each call goes in its headers.
const http = typedApi(() => api.url);
const link = (headers: Record<string, string>, body: Schemas['WalletLinkRequest']) => http.POST('/api/v1/wallet/link', { body, headers });
const me = async (headers: Record<string, string>) => {
  const r = await http.GET('/api/me', { headers });
  expect(r.response.status).toBe(200);
  return r.data!;
};

describe('POST /api/v1/wallet/link', () => {
  it('links a wallet proven by its signature and credits its balance: 2.5M held makes a Free key Builder', async () => {
    const k = await issueTestKey(t.db, 'free');
    const w = testWallet();
    holder.setBalance(w.address, 3_000_000);
    const body = { wallet: w.address, signature_b58: w.sign(walletLinkMessage(k.prefix, w.address)), key_prefix: k.prefix };
    const r = await link(k.bearer, body);
    expect(r.response.status).toBe(200);
    expect(r.data).toMatchObject({ key_prefix: k.prefix, wallet: w.address, holder_token_balance: 3_000_000, holder_access: 'api', tier: 'builder' });

    expect(await me(k.bearer)).toMatchObject({ tier: 'builder', linked_wallet: w.address, holder_token_balance: 3_000_000, holder_access: 'api' });
    expect((await http.GET('/api/v1/stats', { headers: k.bearer })).response.status).toBe(200);

    // Idempotent: the same request again changes nothing but the link time.
    const again = await link(k.bearer, body);
    expect(again.response.status).toBe(200);
    expect(again.data).toMatchObject({ wallet: w.address, holder_token_balance: 3_000_000, tier: 'builder' });
  });

  it('relinking replaces the wallet; a wallet below every threshold gives no holder access', async () => {
    const k = await issueTestKey(t.db, 'free');
    const [rich, poor] = [testWallet(), testWallet()];
    holder.setBalance(rich.address, 2_500_000);
    holder.setBalance(poor.address, 499_999.5);
    const first = await link(k.xApiKey, { wallet: rich.address, signature_b58: rich.sign(walletLinkMessage(k.prefix, rich.address)), key_prefix: k.prefix });
    expect(first.data).toMatchObject({ wallet: rich.address, tier: 'builder' });
    const r = await link(k.xApiKey, { wallet: poor.address, signature_b58: poor.sign(walletLinkMessage(k.prefix, poor.address)), key_prefix: k.prefix });
    expect(r.response.status).toBe(200);
    expect(r.data).toMatchObject({ wallet: poor.address, holder_token_balance: 499_999.5, holder_access: null, tier: 'free' });
    expect(await me(k.bearer)).toMatchObject({ linked_wallet: poor.address, tier: 'free' });
  });

  it('a wallet credits one key at a time: linking it to another key moves it, the first key is Free again', async () => {
    const [a, b] = [await issueTestKey(t.db, 'free'), await issueTestKey(t.db, 'free')];
    const w = testWallet();
    holder.setBalance(w.address, 3_000_000);
    const linkTo = (k: typeof a) => link(k.bearer, { wallet: w.address, signature_b58: w.sign(walletLinkMessage(k.prefix, w.address)), key_prefix: k.prefix });
    expect((await linkTo(a)).data).toMatchObject({ tier: 'builder' });
    expect((await linkTo(b)).data).toMatchObject({ wallet: w.address, tier: 'builder' });
    expect(await me(b.bearer)).toMatchObject({ tier: 'builder', linked_wallet: w.address });
    expect(await me(a.bearer)).toMatchObject({ tier: 'free', linked_wallet: null, holder_token_balance: null, holder_access: null });
    expect((await http.GET('/api/v1/stats', { headers: a.bearer })).response.status).toBe(403);

    // Two links of the same wallet at once still leave it on exactly one key.
    const [c, d] = [await issueTestKey(t.db, 'free'), await issueTestKey(t.db, 'free')];
    const both = await Promise.all([linkTo(c), linkTo(d)]);
    expect(both.map((r) => r.response.status)).toEqual([200, 200]);
    expect(await t.db('api_keys').where({ wallet: w.address }).whereNull('revoked_at').count('* as n').first()).toEqual({ n: 1 });
  });

  it('refuses forged and replayed signatures and a prefix that is not the caller’s, with 422 on the field', async () => {
    const [a, b] = [await issueTestKey(t.db, 'free'), await issueTestKey(t.db, 'free')];
    const [w, thief] = [testWallet(), testWallet()];
    holder.setBalance(w.address, 3_000_000);
    const signedForA = w.sign(walletLinkMessage(a.prefix, w.address));
    const cases: [Record<string, string>, Schemas['WalletLinkRequest'], string][] = [
      [a.bearer, { wallet: w.address, signature_b58: thief.sign(walletLinkMessage(a.prefix, w.address)), key_prefix: a.prefix }, 'signature_b58'], // signed by another key
      [b.bearer, { wallet: w.address, signature_b58: signedForA, key_prefix: b.prefix }, 'signature_b58'], // replayed onto another key
      [b.bearer, { wallet: w.address, signature_b58: signedForA, key_prefix: a.prefix }, 'key_prefix'], // someone else's prefix
      [a.bearer, { wallet: w.address, signature_b58: w.sign(`${walletLinkMessage(a.prefix, w.address)} `), key_prefix: a.prefix }, 'signature_b58'], // not the exact message
      [a.bearer, { wallet: w.address, signature_b58: '1'.repeat(64), key_prefix: a.prefix }, 'signature_b58'], // not even 64 bytes
    ];
    for (const [headers, body, field] of cases) {
      const r = await link(headers, body);
      expect([field, r.response.status]).toEqual([field, 422]);
      expect(errorLocs(r.error)[0]).toBe(`body.${field}`);
    }
    expect((await me(b.bearer)).linked_wallet).toBeNull();
  });

  it('links with an unknown balance (null) when the RPC is down; without a key it is 401', async () => {
    const k = await issueTestKey(t.db, 'free');
    const w = testWallet();
    holder.setDown(true);
    try {
      const r = await link(k.bearer, { wallet: w.address, signature_b58: w.sign(walletLinkMessage(k.prefix, w.address)), key_prefix: k.prefix });
      expect(r.response.status).toBe(200);
      expect(r.data).toMatchObject({ holder_token_balance: null, holder_access: null, tier: 'free' });
    } finally {
      holder.setDown(false);
    }
    expect((await link({}, { wallet: w.address, signature_b58: '1'.repeat(64), key_prefix: k.prefix })).response.status).toBe(401);
  });
});
