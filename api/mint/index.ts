import { createLedgerProofStore } from '../../db/ledger/ledger-proof-store';
import { createLiveReadModel } from '../../db/mint/live-read-model';
import { createMintReadStore } from '../../db/mint/mint-read-store';
import { createPredictionStore } from '../../db/mint/prediction-store';
import { createStatsStore } from '../../db/mint/stats-store';
import { createCompositeStatusReader } from '../../db/signals/composite-status-reader';
import { createSignalStore } from '../../db/signals/signal-store';
import { createWalletReadStore } from '../../db/wallets/wallet-read-store';
import { defineApiArea } from '../api-area';
import { liveRoutes } from './live-routes';
import { liveSnapshots } from './live-snapshots';
import { mintRoutes } from './mint-routes';
import { runnersRoutes } from './runners-routes';
import { statsRoutes } from './stats-routes';

export const mintApi = defineApiArea({
  name: 'mint',
  deps: (ctx) => ({
    cache: liveSnapshots(ctx).live,
    delayedCache: liveSnapshots(ctx).delayed,
    staleAfterS: ctx.cfg.mint.liveStaleAfterS,
    mintReadStore: createMintReadStore(ctx.db),
    readModel: createLiveReadModel(ctx.db, { smartMoney: { ttlMs: ctx.cfg.wallets.readCacheMs, criteria: ctx.cfg.wallets.smart } }),
    predictionStore: createPredictionStore(ctx.db),
    statsStore: createStatsStore(ctx.db),
    walletsIndexed: () => createWalletReadStore(ctx.db).walletsIndexed(),
    signals24h: (since: Date) => createSignalStore(ctx.db).countsSince(since),
    compositeStatus: createCompositeStatusReader(ctx.db, { nativePriceRefreshS: ctx.cfg.price.refreshIntervalS }),
    ledgerCommitted: (ids: number[]) => createLedgerProofStore(ctx.db).committed('grad_prob', ids),
    now: ctx.now,
    readCacheTtlMs: ctx.cfg.api.readCacheTtlMs,
    keyedReads: ctx.keyedReads,
    publicReads: ctx.publicReads,
  }),
  parts: (d) => ({ routes: [liveRoutes(d), mintRoutes(d), runnersRoutes(d), statsRoutes(d)] }),
});
