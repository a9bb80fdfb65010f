import { proxyActivities } from '@temporalio/workflow';
import type { PerpsLeaderboardActivities } from '../../activities/perps/perps-leaderboard-activities';
import type { PerpsMarketActivities } from '../../activities/perps/perps-market-activities';
import type { LeaderboardDiscoveryResult } from './perps-leaderboard-contract';
import type { MarketsPollResult } from './perps-markets-contract';
import type { RankingsResult } from './perps-rankings-contract';

// A poll that keeps failing is left to the next scheduled one; the activity records every failure for the
// observatory's status, and an answer of a changed shape is not retried at all.
const acts = proxyActivities<PerpsMarketActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 3, initialInterval: '2 seconds', backoffCoefficient: 2 },
});

// The leaderboard is one ~25 MB document: a longer attempt, and fewer of them (the next run is hours away anyway).
const leaderboardActs = proxyActivities<PerpsLeaderboardActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { maximumAttempts: 3, initialInterval: '10 seconds', backoffCoefficient: 3 },
});

/** The live exchange's markets and asset contexts, and a mark-price sample per market; started by a Schedule. */
export async function perpsMarketsPoll(): Promise<MarketsPollResult> {
  return acts.pollPerpsMarkets();
}

/** Today's ranks of the watched wallets; started hourly by a Schedule. */
export async function perpsRankings(): Promise<RankingsResult> {
  return acts.rankPerpsWallets();
}

/** The exchange's leaderboard read and its top wallets watched; started by a Schedule (PERPS_LEADERBOARD_EVERY_S). */
export async function perpsLeaderboardDiscovery(): Promise<LeaderboardDiscoveryResult> {
  return leaderboardActs.discoverPerpsLeaderboard();
}
