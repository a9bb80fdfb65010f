import type { HyperliquidLeaderboardClient } from '../../clients/hyperliquid/hyperliquid-leaderboard-client';
import type { PerpsPollerStore } from '../../db/perps/perps-poller-store';
import type { PerpsWalletStore } from '../../db/perps/perps-wallet-store';
import { LEADERBOARD_RULE_VERSION, leaderboardPicks, type LeaderboardRule } from '../../domain/perps/leaderboard-discovery';
import type { LeaderboardDiscoveryResult } from '../../workflows/perps/perps-leaderboard-contract';
import { asActivityFailure, errorText } from './activity-support';

export type PerpsLeaderboardDeps = {
  exchange: string;
  leaderboard: HyperliquidLeaderboardClient;
  leaderboardRule: LeaderboardRule;
  maxWatchedWallets: number;
  walletStore: PerpsWalletStore;
  pollerStore: PerpsPollerStore;
  now: () => Date;
};

export function createPerpsLeaderboardActivities(d: PerpsLeaderboardDeps) {
  return {
    /**
     * Reads the exchange's leaderboard and watches its top wallets (leaderboard-v1), within the watched-set cap
     * (making room evicts the least recently active wallets that are neither smart nor whales, as the trades stream's
     * discovery does). Idempotent: a wallet watched already is left as it is.
     */
    async discoverPerpsLeaderboard(): Promise<LeaderboardDiscoveryResult> {
      const at = d.now();
      const rule = `leaderboard:${LEADERBOARD_RULE_VERSION}`;
      if (d.leaderboardRule.top === 0) return { exchange: d.exchange, rows: 0, picked: 0, added: 0, rule };
      let rows;
      try {
        rows = await d.leaderboard.leaderboard();
      } catch (e) {
        await d.pollerStore.failed('leaderboard', d.exchange, at, errorText(e));
        throw asActivityFailure(e, 'HyperliquidAnswerUnusable');
      }
      const picked = leaderboardPicks(rows, d.leaderboardRule);
      const added = await d.walletStore.discover(d.exchange, picked, rule, at, d.maxWatchedWallets);
      const result = { exchange: d.exchange, rows: rows.length, picked: picked.length, added, rule };
      await d.pollerStore.ok('leaderboard', d.exchange, at, result);
      return result;
    },
  };
}
export type PerpsLeaderboardActivities = ReturnType<typeof createPerpsLeaderboardActivities>;
