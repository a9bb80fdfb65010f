import { createLiveStore } from '../../db/live/live-store';
import { createScoreVersionStore } from '../../db/wallets/score-version-store';
import { createWalletIndexWriter } from '../../db/wallets/wallet-index-writer';
import { createWalletRankStore } from '../../db/wallets/wallet-rank-store';
import { createWalletRebuildStore } from '../../db/wallets/wallet-rebuild-store';
import { defineActivityArea, type WorkerContext } from '../activity-area';
import { smartMoneyLiveConsumer } from './smart-money-live-consumer';
import { createWalletIndexActivities } from './wallet-index-activities';
import { createWalletRebuildActivities } from './wallet-rebuild-activities';

export const walletsActivities = defineActivityArea({
  name: 'wallets',
  deps: ({ cfg, db, now, liveConsumers }: Pick<WorkerContext, 'cfg' | 'db' | 'now' | 'liveConsumers'>) => ({
    walletIndexWriter: createWalletIndexWriter(db),
    walletRebuildStore: createWalletRebuildStore(db),
    walletRankStore: createWalletRankStore(db),
    scoreVersionStore: createScoreVersionStore(db),
    liveStore: createLiveStore(db),
    smartCriteria: cfg.wallets.smart,
    liveConsumers,
    now,
  }),
  activities: (d) => {
    // The smart-money list is written with the live list, from the top buyers the projector already enriched.
    d.liveConsumers.register('wallets', smartMoneyLiveConsumer(d));
    return { ...createWalletIndexActivities(d), ...createWalletRebuildActivities(d) };
  },
});
