import { createExchangeAReadModel } from '../../db/perps/exchange-a-read-model';
import { createPerpsEntryStore } from '../../db/perps/perps-entry-store';
import { createPerpsLedgerStore } from '../../db/perps/perps-ledger-store';
import { createPerpsMarketStore } from '../../db/perps/perps-market-store';
import { createPerpsPollerStore } from '../../db/perps/perps-poller-store';
import { createPerpsRankStore } from '../../db/perps/perps-rank-store';
import { createPerpsReadModel } from '../../db/perps/perps-read-model';
import { createPerpsWalletStore } from '../../db/perps/perps-wallet-store';
import { perpsExchangeName } from '../../domain/perps/exchange-name';
import { snapshotCapacityPerS } from '../../domain/perps/snapshot-policy';
import { defineApiArea } from '../api-area';
import { exchangeARoutes } from './exchange-a-routes';
import { observatoryRoutes } from './observatory-routes';
import { perpsLedgerRoutes } from './perps-ledger-routes';
import { perpsMarketRoutes } from './perps-market-routes';
import { perpsWalletRoutes } from './perps-wallet-routes';

export const perpsApi = defineApiArea({
  name: 'perps',
  deps: ({ cfg, db, now }) => ({
    exchange: perpsExchangeName(cfg.perps.exchange),
    marketsIntervalS: cfg.perps.marketsIntervalS,
    snapshotSweepS: cfg.perps.snapshotSweepS,
    snapshotCadence: { hotS: cfg.perps.snapshotHotS, coldS: cfg.perps.snapshotColdS },
    snapshotCapacityPerS: snapshotCapacityPerS(cfg.perps.weightPerMinute, cfg.perps.snapshotBudgetShare),
    marketStore: createPerpsMarketStore(db),
    pollerStore: createPerpsPollerStore(db),
    walletStore: createPerpsWalletStore(db),
    entryStore: createPerpsEntryStore(db),
    rankStore: createPerpsRankStore(db),
    readModel: createPerpsReadModel(db),
    exchangeA: createExchangeAReadModel(db),
    ledgerStore: createPerpsLedgerStore(db),
    now,
  }),
  parts: (d) => ({ routes: [observatoryRoutes(d), perpsWalletRoutes(d), perpsMarketRoutes(d), exchangeARoutes(d), perpsLedgerRoutes(d)] }),
});
