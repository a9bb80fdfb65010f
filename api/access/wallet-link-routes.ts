import { Router } from 'express';
import type { ApiKeyStore } from '../../db/access/api-key-store';
import type { HolderBalanceClient } from '../../clients/solana/holder-balance-client';
import { effectiveTier, holderAccessFor } from '../../domain/access/tiers';
import { verifyWalletSignature, walletLinkMessage } from '../../domain/access/wallet-proof';
import { invalidKey } from './access-errors';
import { callerAccess, type AccessSettings } from './key-auth';
import { bodyError, walletAddressError } from './body-error';

type LinkBody = { wallet: string; signature_b58: string; key_prefix: string };

/**
 * POST /api/v1/wallet/link: the wallet proves ownership by signing the documented message for the calling key's
 * prefix; its holder-token balance is read now and credited to the key. Repeating it relinks (idempotent).
 * A signature is bound to one key prefix and one wallet, so it cannot be replayed onto another key.
 */
export function walletLinkRoutes(d: { apiKeyStore: ApiKeyStore; holderBalances: HolderBalanceClient; settings: AccessSettings; now: () => Date }): Router {
  const r = Router();
  r.post('/api/v1/wallet/link', async (req, res) => {
    const access = callerAccess(res);
    if (access?.kind !== 'key') throw invalidKey('linking a wallet needs the API key it links to');
    const b = req.body as LinkBody;
    const badWallet = walletAddressError(['body', 'wallet'], b.wallet);
    if (badWallet) throw badWallet;
    if (b.key_prefix !== access.key.prefix)
      throw bodyError(['body', 'key_prefix'], 'key_prefix is not the prefix of the calling key', 'value_error', b.key_prefix);
    if (!verifyWalletSignature(walletLinkMessage(b.key_prefix, b.wallet), b.signature_b58, b.wallet)) {
      throw bodyError(['body', 'signature_b58'], `not an ed25519 signature by ${b.wallet} of "${walletLinkMessage(b.key_prefix, b.wallet)}"`, 'value_error');
    }
    // A failed read still links the wallet; the balance stays unknown (null) until the scheduled re-check reads it.
    const balance = await d.holderBalances.balanceOf(b.wallet).catch(() => null);
    const now = d.now();
    const key = await d.apiKeyStore.linkWallet(access.key.id, b.wallet, balance, now);
    if (!key) throw invalidKey('the API key was revoked');
    const th = d.settings.holderThresholds;
    res.json({
      key_prefix: key.prefix,
      wallet: b.wallet,
      linked_at: now.toISOString(),
      holder_token_balance: balance,
      holder_access: holderAccessFor(balance, th),
      tier: effectiveTier(key, now, th),
    });
  });
  return r;
}
