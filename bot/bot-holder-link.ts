import { randomBytes } from 'node:crypto';
import type { BotChatStore } from '../db/alerts/bot-chat-store';
import type { BotWalletLinkStore } from '../db/alerts/bot-wallet-link-store';
import { walletAddressProblem, WALLET_ADDRESS_PROBLEM_MESSAGE } from '../domain/access/wallet-address';
import { walletSignupMessage } from '../domain/access/wallet-proof';
import type { WalletSignupStarter } from '../workflows/access/wallet-signup-starter';

/** As the API's signup: the minted key is shown by GET /api/signup/wallet/{link_id} for five minutes. */
const KEY_VISIBLE_S = 300;

export type BotHolderLinkDeps = {
  /** Null where the bot has no Temporal client at hand: linking a wallet then answers that it is unavailable. */
  signups: WalletSignupStarter | null;
  walletLinks: BotWalletLinkStore;
  chatStore: Pick<BotChatStore, 'link'>;
  /** The signal-access threshold (holder tokens, UI units): a bot chat asks for signal access. */
  threshold: number;
  ttlS: number;
  publicBaseUrl: string;
  now: () => Date;
};

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/**
 * Links a bot chat to holder access through the API's signed-message signup (workflows/access wallet-signup):
 * `/link wallet <address>` starts a signup whose message names its link, `/sign <signature>` hands the signature to
 * that workflow, which checks it (tweetnacl, the API's own check) and the balance and mints the holder's key; the
 * chat is then linked to that key. Signal access follows the balance afterwards (the holder re-check).
 */
export function createBotHolderLink(d: BotHolderLinkDeps) {
  return {
    async start(chatId: number, wallet: string): Promise<string> {
      const problem = walletAddressProblem(wallet);
      if (problem) return `That is not a wallet address: it ${WALLET_ADDRESS_PROBLEM_MESSAGE[problem]}.`;
      if (!d.signups) return 'Linking a holder wallet is not available right now; try again in a minute.';
      const linkId = randomBytes(16).toString('base64url');
      const now = d.now();
      const message = walletSignupMessage(linkId, 'signals', wallet);
      await d.walletLinks.remember(chatId, linkId, wallet, now);
      await d.signups.start({
        linkId,
        wallet,
        access: 'signals',
        message,
        threshold: d.threshold,
        createdAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + d.ttlS * 1000).toISOString(),
        keyVisibleS: KEY_VISIBLE_S,
      });
      return [
        `Sign this exact message with ${wallet} (your wallet's "sign message"), then send /sign <signature> (base58) within ${Math.round(d.ttlS / 60)} minutes:`,
        '',
        message,
      ].join('\n');
    },

    async sign(chatId: number, signature: string): Promise<string> {
      if (!d.signups) return 'Linking a holder wallet is not available right now; try again in a minute.';
      const link = await d.walletLinks.latest(chatId);
      if (!link) return 'Start with /link wallet <address>: I will give you the message to sign.';
      if (link.status === 'expired') return 'That link expired: /link wallet <address> again.';
      let outcome: string = link.status;
      if (link.status === 'pending') {
        try {
          outcome = (await d.signups.sign(link.linkId, signature)).outcome;
        } catch {
          // The workflow has finished (expired meanwhile): its row says how it ended.
        }
      }
      const after = await d.walletLinks.latest(chatId);
      if (outcome === 'pending') outcome = after?.status ?? 'expired';
      if (outcome === 'fulfilled' && after?.keyId) {
        await d.chatStore.link(chatId, after.keyId, d.now());
        return [
          `Linked to holder wallet ${link.wallet} (${fmt(after.balance ?? 0)} holder tokens): signal access. /signals ACT WATCH SCOUT to receive them.`,
          `The API key minted for this wallet is shown once, for five minutes: ${d.publicBaseUrl}/api/signup/wallet/${link.linkId}`,
        ].join('\n');
      }
      if (outcome === 'fulfilled') outcome = 'balance_unavailable';
      switch (outcome) {
        case 'invalid_signature':
          return `That is not a signature by ${link.wallet} of the message I sent; sign exactly that message and send /sign <signature> again.`;
        case 'balance_unavailable':
          return 'The holder-token balance could not be read just now; send the same /sign again in a moment.';
        case 'pending':
          return 'Your signature could not be checked just now; send the same /sign again in a moment.';
        case 'ineligible':
          return `${link.wallet} holds ${fmt(after?.balance ?? 0)} holder tokens; signal access needs ${fmt(d.threshold)}. Nothing was linked.`;
        default:
          return 'That link expired: /link wallet <address> again.';
      }
    },
  };
}
export type BotHolderLink = ReturnType<typeof createBotHolderLink>;
