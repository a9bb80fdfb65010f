import { createScoreVersionStore } from '../../db/wallets/score-version-store';
import { createWalletIndexWriter } from '../../db/wallets/wallet-index-writer';
import { createWalletRankStore } from '../../db/wallets/wallet-rank-store';
import { createWalletRebuildStore } from '../../db/wallets/wallet-rebuild-store';
import { defineActivityArea, type WorkerContext } from '../activity-area';
import { createWalletIndexActivities } from './wallet-index-activities';
import { createWalletRebuildActivities } from './wallet-rebuild-activities';

export const walletsActivities = defineActivityArea({
  name: 'wallets',
  deps: ({ db, now }: Pick<WorkerContext, 'db' | 'now'>) => ({
    walletIndexWriter: createWalletIndexWriter(db),
    walletRebuildStore: createWalletRebuildStore(db),
    walletRankStore: createWalletRankStore(db),
    scoreVersionStore: createScoreVersionStore(db),
    now,
  }),
  activities: (d) => ({ ...createWalletIndexActivities(d), ...createWalletRebuildActivities(d) }),
});
