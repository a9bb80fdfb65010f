import type { Client } from '@temporalio/client';
import type { ActivityDeps } from '../activities';
import { createKnnGradProbScorer } from '../activities/mint/knn-grad-prob-scorer';
import type { PriceClient } from '../clients/jupiter-price-client';
import { createPriceStore } from '../db/market/price-store';
import { createApiKeyStore } from '../db/access/api-key-store';
import { createWalletLinkStore } from '../db/access/wallet-link-store';
import { createHolderBalanceClient } from '../clients/solana/holder-balance-client';
import { createCorpusStore } from '../db/mint/corpus-store';
import { createLiveStore } from '../db/mint/live-store';
import { createMintReadStore } from '../db/mint/mint-read-store';
import { createOutcomeStore } from '../db/mint/outcome-store';
import { createPredictionStore } from '../db/mint/prediction-store';
import { createHeartbeatStore } from '../db/ops/heartbeat-store';
import { createWatchdogStore } from '../db/ops/watchdog-store';
import type { Config } from '../platform/config';
import type { Knex } from '../platform/db';
import type { Logger } from '../platform/logger';
import { WORKFLOW_DEADLINES_S } from './workflow-deadlines';

/** Every activity dependency over one database; the worker's composition root and the tests share it. */
export function buildActivityDeps(db: Knex, o: { cfg: Config; temporal: Client; priceClient: PriceClient; log: Logger; now?: () => Date }): ActivityDeps {
  const now = o.now ?? (() => new Date());
  return {
    watchdogStore: createWatchdogStore(db),
    heartbeatStore: createHeartbeatStore(db),
    temporal: o.temporal,
    diskPath: o.cfg.watchdog.diskPath,
    workflowDeadlinesS: WORKFLOW_DEADLINES_S,
    heartbeatIntervalS: o.cfg.heartbeatIntervalS,
    watchdogIntervalS: o.cfg.watchdog.intervalS,
    expectedDaemons: o.cfg.expectedDaemons,
    priceClient: o.priceClient,
    priceStore: createPriceStore(db),
    sourceName: 'jupiter-price-v3',
    mintReadStore: createMintReadStore(db),
    predictionStore: createPredictionStore(db),
    outcomeStore: createOutcomeStore(db),
    gradProbScorer: createKnnGradProbScorer({ corpusStore: createCorpusStore(db), refitEveryS: o.cfg.mint.modelRefitEveryS, corpusLimit: o.cfg.mint.corpusLimit, log: o.log, now: () => now().getTime() }),
    dexPriceClient: o.priceClient,
    dexPriceSourceName: 'jupiter-price-v3',
    liveStore: createLiveStore(db),
    liveWindowS: o.cfg.mint.liveWindowS,
    liveMaxEntries: o.cfg.mint.liveMaxEntries,
    refreshIntervalS: Math.max(1, Math.round(o.cfg.mint.liveRefreshMs / 1000)),
    apiKeyStore: createApiKeyStore(db, { now }),
    walletLinkStore: createWalletLinkStore(db),
    holderBalances: createHolderBalanceClient({ rpcUrl: o.cfg.access.holder.rpcUrl, mint: o.cfg.access.holder.mint }),
    keyRevealSecret: o.cfg.access.keyRevealSecret,
    now,
  };
}
