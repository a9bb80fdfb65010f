import type { HyperliquidInfoClient } from '../../clients/hyperliquid/hyperliquid-info-client';
import type { PerpsMarketStore } from '../../db/perps/perps-market-store';
import type { PerpsPollerStore } from '../../db/perps/perps-poller-store';
import type { PerpsRankStore } from '../../db/perps/perps-rank-store';
import type { MarketsPollResult } from '../../workflows/perps/perps-markets-contract';
import type { RankingsResult } from '../../workflows/perps/perps-rankings-contract';
import { asActivityFailure, errorText } from './activity-support';

export type PerpsMarketDeps = {
  exchange: string;
  info: HyperliquidInfoClient;
  marketStore: PerpsMarketStore;
  pollerStore: PerpsPollerStore;
  rankStore: PerpsRankStore;
  now: () => Date;
};

export function createPerpsMarketActivities(d: PerpsMarketDeps) {
  return {
    /** One markets poll: every listed market's context and a mark-price sample (metaAndAssetCtxs, weight 20). */
    async pollPerpsMarkets(): Promise<MarketsPollResult> {
      const at = d.now();
      let markets;
      try {
        markets = (await d.info.markets()).filter((m) => !m.isDelisted);
      } catch (e) {
        await d.pollerStore.failed('markets', d.exchange, at, errorText(e));
        throw asActivityFailure(e, 'HyperliquidAnswerUnusable');
      }
      await d.marketStore.recordPoll(
        d.exchange,
        markets.map(({ szDecimals: _s, isDelisted: _d, ...m }) => m),
        at,
      );
      const budget = d.info.budget.stats();
      await d.pollerStore.ok('markets', d.exchange, at, { markets: markets.length, weightSpent: budget.spent, weightWaitedMs: budget.waitedMs });
      return { exchange: d.exchange, markets: markets.length, at: at.toISOString() };
    },

    /** Today's ranks of the watched wallets by smart score (one row per wallet per UTC day). */
    async rankPerpsWallets(): Promise<RankingsResult> {
      const at = d.now();
      const date = at.toISOString().slice(0, 10);
      const r = await d.rankStore.rankDay(d.exchange, date);
      await d.pollerStore.ok('rankings', d.exchange, at, { date, ...r });
      return { exchange: d.exchange, date, ...r };
    },
  };
}
export type PerpsMarketActivities = ReturnType<typeof createPerpsMarketActivities>;
