import { ApplicationFailure } from '@temporalio/activity';
import type { WalletIndexWriter } from '../../db/wallets/wallet-index-writer';
import { LIVE_TABLES } from '../../db/wallets/wallet-tables';
import type { WalletContributionStep } from '../../workflows/mint/mint-lifecycle-contract';

export type WalletIndexDeps = { walletIndexWriter: WalletIndexWriter };

export function createWalletIndexActivities(d: WalletIndexDeps): WalletContributionStep {
  return {
    /**
     * The resolution step of a mint's lifecycle: its buyers' records take what the mint contributes to each of them
     * (after resolveMint wrote its labels). Once per (wallet, mint) however often it runs: a retry changes nothing, a
     * re-resolution whose label changed moves the counts once (db/wallets/contribution-writer.ts).
     */
    async applyWalletContributions(input: { mint: string; horizonAt: string }): Promise<{ buyers: number; walletsChanged: number; walletsAdded: number }> {
      const r = await d.walletIndexWriter.apply(LIVE_TABLES, [{ mint: input.mint, horizonAt: new Date(input.horizonAt) }]);
      // resolveMint runs first in the lifecycle; a mint without its outcome here is a bug, not a transient state.
      if (r.unresolved.length) throw ApplicationFailure.nonRetryable(`mint ${input.mint} has no resolved outcome`, 'UnresolvedMint');
      return { buyers: r.buyers, walletsChanged: r.walletsChanged, walletsAdded: r.walletsAdded };
    },
  };
}
