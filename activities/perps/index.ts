import { createDriftHistoricalClient } from '../../clients/drift/drift-historical-client';
import { createHyperliquidInfoClient } from '../../clients/hyperliquid/hyperliquid-info-client';
import { createHyperliquidLeaderboardClient } from '../../clients/hyperliquid/hyperliquid-leaderboard-client';
import { createExchangeAImportStore } from '../../db/perps/exchange-a-import-store';
import { createExchangeATraderStore } from '../../db/perps/exchange-a-trader-store';
import { createPerpsEntryStore } from '../../db/perps/perps-entry-store';
import { createPerpsMarketStore } from '../../db/perps/perps-market-store';
import { createPerpsPollerStore } from '../../db/perps/perps-poller-store';
import { createPerpsRankStore } from '../../db/perps/perps-rank-store';
import { createPerpsSnapshotStore } from '../../db/perps/perps-snapshot-store';
import { createPerpsWalletStore } from '../../db/perps/perps-wallet-store';
import { perpsExchangeName } from '../../domain/perps/exchange-name';
import { DEFAULT_JUDGING_HORIZONS } from '../../workflows/perps/perps-entry-judging-contract';
import { startDriftImport } from '../../workflows/perps/drift-import-starter';
import { createEntryJudgingStarter } from '../../workflows/perps/perps-entry-judging-starter';
import { defineActivityArea, type WorkerContext } from '../activity-area';
import { createDriftImportActivities } from './drift-import-activities';
import { createPerpsJudgingActivities } from './perps-judging-activities';
import { createPerpsLeaderboardActivities } from './perps-leaderboard-activities';
import { createPerpsMarketActivities } from './perps-market-activities';
import { retirePerpsLedgerSchedule } from './retired-perps-ledger-schedule';
import { createPerpsSnapshotActivities } from './perps-snapshot-activities';

/**
 * The perps observatory's activities. One Hyperliquid client per worker process, so every poll, snapshot and fill
 * read of the process spends from one weight budget (HYPERLIQUID_WEIGHT_PER_MINUTE is per worker process).
 */
export const perpsActivities = defineActivityArea({
  name: 'perps',
  deps: ({ cfg, db, temporal, now }: Pick<WorkerContext, 'cfg' | 'db' | 'temporal' | 'now'>) => {
    const p = cfg.perps;
    return {
      exchange: perpsExchangeName(p.exchange),
      info: createHyperliquidInfoClient({ baseUrl: p.apiUrl, weightPerMinute: p.weightPerMinute }),
      drift: createDriftHistoricalClient({ baseUrl: p.drift.baseUrl }),
      leaderboard: createHyperliquidLeaderboardClient({ url: p.leaderboard.url }),
      leaderboardRule: { top: p.leaderboard.top, minAccountValueUsd: p.leaderboard.minAccountValueUsd },
      maxWatchedWallets: p.maxWatchedWallets,
      marketStore: createPerpsMarketStore(db),
      walletStore: createPerpsWalletStore(db),
      snapshotStore: createPerpsSnapshotStore(db),
      entryStore: createPerpsEntryStore(db),
      pollerStore: createPerpsPollerStore(db),
      rankStore: createPerpsRankStore(db),
      importStore: createExchangeAImportStore(db),
      traderStore: createExchangeATraderStore(db),
      judgingStarter: createEntryJudgingStarter(temporal, cfg.temporal.taskQueue),
      judgingHorizons: DEFAULT_JUDGING_HORIZONS,
      weightPerMinute: p.weightPerMinute,
      snapshotBudgetShare: p.snapshotBudgetShare,
      snapshotSweepS: p.snapshotSweepS,
      snapshotHotS: p.snapshotHotS,
      snapshotColdS: p.snapshotColdS,
      recordRefreshS: p.recordRefreshS,
      now,
    };
  },
  activities: (d) => ({
    ...createPerpsMarketActivities(d),
    ...createPerpsSnapshotActivities(d),
    ...createPerpsJudgingActivities(d),
    ...createDriftImportActivities(d),
    ...createPerpsLeaderboardActivities(d),
  }),
  start: async (_d, { cfg, temporal, log }) => {
    await retirePerpsLedgerSchedule(temporal, log);
    const a = cfg.perps.drift;
    if (!a.importOnStart) return () => undefined;
    for (const market of a.importMarkets) {
      const input = { market, from: a.importFrom, to: a.importTo, concurrency: a.importConcurrency, refresh: false };
      // An import that cannot start now (Temporal busy) waits for the next worker start or `npm run perps:import`.
      await startDriftImport(temporal, cfg.temporal.taskQueue, input).catch((e) => log.warn({ err: e, market }, 'perps: the import at start did not start'));
    }
    return () => undefined;
  },
});
