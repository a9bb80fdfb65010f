import { createLiveStore, SMART_MONEY_SNAPSHOT } from '../../db/live/live-store';
import { createScoreVersionStore } from '../../db/wallets/score-version-store';
import { createWalletReadStore } from '../../db/wallets/wallet-read-store';
import type { SmartScoreVersion } from '../../domain/wallets/smart-score';
import type { WalletRecord } from '../../domain/wallets/wallet-record';
import { defineApiArea } from '../api-area';
import { createLiveSnapshotCache } from '../live/live-snapshot-cache';
import { createReadCache } from './read-cache';
import { leaderboardRoutes } from './leaderboard-routes';
import { smartMoneyRoutes } from './smart-money-routes';
import { walletRoutes } from './wallet-routes';

export const walletsApi = defineApiArea({
  name: 'wallets',
  deps: ({ cfg, db, now }) => {
    const versions = createScoreVersionStore(db);
    const versionCache = createReadCache<SmartScoreVersion>({ ttlMs: cfg.wallets.readCacheMs, maxKeys: 1 });
    return {
      walletReadStore: createWalletReadStore(db),
      // The published version changes only when a rebuild swaps in; every read names the version it used.
      scoreVersion: async () => (await versionCache.get('active', () => versions.active())).value,
      smartCriteria: cfg.wallets.smart,
      leaderboardCache: createReadCache<{ record: WalletRecord; score: number }[]>({ ttlMs: cfg.wallets.readCacheMs, maxKeys: 256 }),
      smartMoneyCache: createLiveSnapshotCache(createLiveStore(db), SMART_MONEY_SNAPSHOT, 500),
      now,
    };
  },
  parts: (d) => ({ routes: [walletRoutes(d), leaderboardRoutes(d), smartMoneyRoutes(d)] }),
});
