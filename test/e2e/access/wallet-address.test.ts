import { randomBytes } from 'node:crypto';
import { PublicKey } from '@solana/web3.js';
import bs58 from 'bs58';
import { walletLinkMessage } from '../../../domain/access/wallet-proof';
import { issueTestKey } from '../../support/access-keys';
import { afterBeta, useApi } from '../../support/api-harness';
import { testWallet } from '../../support/test-wallet';
import { typedApi, validationError } from '../../support/typed-api';

/**
 * A wallet is the base58 form of a 32-byte ed25519 public key. The schema's pattern (32–44 base58 characters) lets
 * through 31-byte strings and program-derived (off-curve) addresses, which can never sign; both answer 422 on
 * body.wallet before any workflow or row is made.
 */

// No Temporal here: a wallet that passed the check would reach the 503 for the missing workflow service.
const { t, api } = useApi({ env: afterBeta({ keyCacheTtlMs: 0 }) });

const http = typedApi(() => api.url);

/** Random bytes with a non-zero first byte, so the base58 string is as long as the schema expects. */
const bytes = (n: number) => {
  const b = randomBytes(n);
  b[0] = 0x80 | b[0]!;
  return b;
};
const offCurve = PublicKey.findProgramAddressSync([Buffer.from('not a wallet')], new PublicKey('6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P'))[0].toBase58();
const notWallets: Record<string, string> = { '31 bytes': bs58.encode(bytes(31)), '24 bytes': bs58.encode(bytes(24)), 'off the curve': offCurve };

describe('a wallet must decode to a 32-byte ed25519 public key', () => {
  it.each(Object.entries(notWallets))('signup init refuses a wallet of %s with 422 on body.wallet', async (_what, wallet) => {
    expect(wallet).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/); // what the schema lets through
    const r = await http.POST('/api/signup/wallet/init', { body: { wallet, tier: 'api' } });
    expect(r.response.status).toBe(422);
    expect(validationError(r.error).detail).toEqual([
      { loc: ['body', 'wallet'], msg: expect.stringMatching(/^the wallet /), type: 'value_error', input: wallet },
    ]);
  });

  it('lets a real wallet through to the signup (503 here, without a workflow service)', async () => {
    const r = await http.POST('/api/signup/wallet/init', { body: { wallet: testWallet().address, tier: 'api' } });
    expect(r.response.status).toBe(503);
    expect(await t.db('wallet_links').count({ n: '*' }).first()).toEqual({ n: 0 });
  });

  it.each(Object.entries(notWallets))('/api/v1/wallet/link refuses a wallet of %s with 422 on body.wallet, not on the signature', async (_what, wallet) => {
    const k = await issueTestKey(t.db, 'free');
    const r = await http.POST('/api/v1/wallet/link', {
      body: { wallet, signature_b58: testWallet().sign(walletLinkMessage(k.prefix, wallet)), key_prefix: k.prefix },
      headers: k.bearer,
    });
    expect(r.response.status).toBe(422);
    expect(validationError(r.error).detail).toEqual([
      { loc: ['body', 'wallet'], msg: expect.stringMatching(/^the wallet /), type: 'value_error', input: wallet },
    ]);
    expect((await t.db('api_keys').where({ id: k.id }).first()).wallet).toBeNull();
  });
});
