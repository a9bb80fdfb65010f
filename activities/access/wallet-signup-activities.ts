import { heartbeat } from '@temporalio/activity';
import type { ApiKeyStore } from '../../db/access/api-key-store';
import type { WalletLinkStore } from '../../db/access/wallet-link-store';
import type { HolderBalanceClient } from '../../clients/solana/holder-balance-client';
import { sealKey } from '../../domain/access/sealed-key';
import { verifyWalletSignature } from '../../domain/access/wallet-proof';
import type { SignResult, WalletSignupInput } from '../../workflows/access/wallet-signup-contract';

export type WalletSignupDeps = {
  apiKeyStore: ApiKeyStore;
  walletLinkStore: WalletLinkStore;
  holderBalances: HolderBalanceClient;
  keyRevealSecret: string | undefined;
  now: () => Date;
};

/** Activities of the holder signup and the holder re-check; every write is conditional, so a retry changes nothing twice. */
export function createWalletSignupActivities(d: WalletSignupDeps) {
  return {
    async recordWalletLinkPending(i: WalletSignupInput): Promise<void> {
      await d.walletLinkStore.insertPending({ ...i, createdAt: new Date(i.createdAt), expiresAt: new Date(i.expiresAt) });
    },

    /** Checks the signature, reads the balance, and mints the key (sealed for the poll) when it suffices. */
    async completeWalletSignup(i: {
      linkId: string;
      wallet: string;
      message: string;
      threshold: number;
      signature: string;
      keyVisibleS: number;
    }): Promise<SignResult> {
      if (!verifyWalletSignature(i.message, i.signature, i.wallet)) return { outcome: 'invalid_signature' };
      const secret = d.keyRevealSecret;
      if (!secret) return { outcome: 'balance_unavailable', detail: 'KEY_REVEAL_SECRET is not configured on the worker' };
      let balance: number;
      try {
        balance = await d.holderBalances.balanceOf(i.wallet);
      } catch (e) {
        // Reported to the caller (503) instead of retried here: the wallet may sign again a moment later.
        return { outcome: 'balance_unavailable', detail: (e as Error).message };
      }
      const at = d.now();
      if (balance < i.threshold) {
        const status = await d.walletLinkStore.markIneligible(i.linkId, balance, at);
        return { outcome: status === 'pending' ? 'expired' : status };
      }
      const r = await d.walletLinkStore.fulfil(i.linkId, {
        balance,
        at,
        visibleUntil: new Date(at.getTime() + i.keyVisibleS * 1000),
        seal: (plaintext) => sealKey(plaintext, secret),
      });
      return { outcome: r.status === 'pending' ? 'expired' : r.status };
    },

    async expireWalletLink(i: { linkId: string }): Promise<'expired' | 'fulfilled' | 'ineligible' | 'pending'> {
      return d.walletLinkStore.expire(i.linkId, d.now());
    },

    async withholdWalletLinkKey(i: { linkId: string }): Promise<void> {
      await d.walletLinkStore.withholdKey(i.linkId, d.now());
    },

    /** Re-reads one page of linked wallets and credits what they hold now. */
    async recheckHolderPage(i: { afterId: number; limit: number }): Promise<{ checked: number; changed: number; failed: number; lastId: number | null }> {
      const keys = await d.apiKeyStore.keysWithWallets(i.afterId, i.limit);
      let changed = 0;
      let failed = 0;
      for (const k of keys) {
        heartbeat();
        try {
          const balance = await d.holderBalances.balanceOf(k.wallet);
          const credited = await d.apiKeyStore.creditHolderBalance(k.id, k.wallet, balance, d.now());
          if (credited && balance !== k.holderBalance) changed++;
        } catch {
          failed++;
        }
      }
      return { checked: keys.length, changed, failed, lastId: keys.length < i.limit ? null : keys[keys.length - 1]!.id };
    },
  };
}
export type WalletSignupActivities = ReturnType<typeof createWalletSignupActivities>;
