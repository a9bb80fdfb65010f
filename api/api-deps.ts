import { createMarketConditionsStore } from '../db/market/market-conditions-store';
import { createAccuracyStore } from '../db/accuracy/accuracy-store';
import { createGateStore } from '../db/accuracy/gate-store';
import { createModelFitStore } from '../db/accuracy/model-fit-store';
import { createApiKeyStore } from '../db/access/api-key-store';
import { createUsageStore } from '../db/access/usage-store';
import { createWalletLinkStore } from '../db/access/wallet-link-store';
import { createHolderBalanceClient, type HolderBalanceClient } from '../clients/solana/holder-balance-client';
import { createMintDecimalsReader } from '../clients/solana/mint-decimals-client';
import type { TokenPaymentSettings } from './billing/token-payment';
import type { Client as TemporalClient } from '@temporalio/client';
import type { WalletSignupSettings } from './access/wallet-signup-routes';
import { DEFAULT_KEY_REQUIRED_AFTER } from '../domain/access/beta-window';
import { FREE_LIVE_DELAY_S } from '../domain/access/operation-tiers';
import { DEV_KEY_REVEAL_SECRET } from '../domain/access/sealed-key';
import { createPriceStore } from '../db/market/price-store';
import { createCorpusStore } from '../db/mint/corpus-store';
import { createCreatorStore } from '../db/mint/creator-store';
import { createLiveStore, LIVE_DELAYED_SNAPSHOT, LIVE_SNAPSHOT } from '../db/mint/live-store';
import { createMintReadStore } from '../db/mint/mint-read-store';
import { createLiveReadModel } from '../db/mint/live-read-model';
import { createPredictionStore } from '../db/mint/prediction-store';
import { createStatsStore } from '../db/mint/stats-store';
import { createHeartbeatStore } from '../db/ops/heartbeat-store';
import { createWatchdogStore } from '../db/ops/watchdog-store';
import { LatencyWindow } from '../domain/ops/latency-window';
import type { Knex } from '../platform/db';
import type { Logger } from '../platform/logger';
import type { Metrics } from '../platform/metrics';
import type { ApiDeps } from './app';
import type { PaymentIntentStarter } from '../workflows/billing/payment-intent-starter';
import { createBurnStore } from '../db/billing/burn-store';
import { createIntentCreation } from '../db/billing/intent-creation';
import { createPaymentIntentStore } from '../db/billing/payment-intent-store';
import { createPlanKeys } from '../db/billing/plan-keys';
import { createTreasuryStore } from '../db/billing/treasury-store';
import { createLiveSnapshotCache } from './mint/live-snapshot-cache';
import { createKeyCache } from './access/key-cache';
import { createQuotaCounter } from './access/quota-counter';
import type { AccessSettings } from './access/key-auth';
import { createPublicPostLimiter } from '../db/access/public-post-limiter';
import { DEFAULT_PUBLIC_POST_LIMITS, publicPostRateLimits, type PublicPostLimits } from '../domain/access/public-post-limits';

/** Holder signup as configured by default (platform/config.ts has the same defaults). */
export const DEFAULT_WALLET_SIGNUP: WalletSignupSettings = {
  ttlS: 900,
  keyVisibleS: 300,
  thresholds: { signals: 500_000, api: 2_500_000 },
  keyRevealSecret: DEV_KEY_REVEAL_SECRET,
  publicBaseUrl: undefined,
};

/** Paid access as configured by default (platform/config.ts has the same defaults). */
export const DEFAULT_ACCESS: AccessSettings = {
  authEnabled: true,
  keyRequiredAfter: new Date(DEFAULT_KEY_REQUIRED_AFTER),
  keyCacheTtlMs: 5000,
  holderThresholds: { signals: 500_000, api: 2_500_000 },
};

/** Builds every API dependency over one database; used by the server, tests, fuzzing and benchmarks alike. */
export function buildApiDeps(
  db: Knex,
  o: {
    log: Logger;
    metrics: Metrics;
    validateResponses: boolean;
    version: string;
    heartbeatIntervalS: number;
    watchdogIntervalS: number;
    priceRefreshIntervalS: number;
    conditionsRefreshS: number;
    conditionsMinHistoryH: number;
    expectedDaemons: readonly string[];
    modelRefitEveryS: number;
    accuracyRefreshS: number;
    /** LIVE_STALE_AFTER_S (platform/config.ts has the same default). */
    liveStaleAfterS?: number;
    access?: Partial<AccessSettings>;
    /** Limits on unauthenticated POSTs; platform/config.ts has the same defaults. */
    publicPostLimits?: Partial<PublicPostLimits>;
    walletSignup?: Partial<WalletSignupSettings>;
    holderBalances?: HolderBalanceClient;
    temporal?: { client: TemporalClient; taskQueue: string };
    now?: () => Date;
    billing?: {
      treasury?: string;
      intentWindowS?: number;
      publicBaseUrl?: string;
      paymentStarter?: PaymentIntentStarter;
      holderTokenMint?: string;
      /** Offered only with `holderTokenMint`: the rate, and the node the mint's decimals are read from. */
      tokenPayment?: { tokensPerSol: string; rpcUrl: string };
    };
  },
): ApiDeps {
  const liveStore = createLiveStore(db);
  const modelFitStore = createModelFitStore(db);
  const now = o.now ?? (() => new Date());
  const access = { ...DEFAULT_ACCESS, ...o.access };
  const apiKeyStore = createApiKeyStore(db, { now });
  const usageStore = createUsageStore(db);
  return {
    ...o,
    access,
    apiKeyStore,
    walletLinkStore: createWalletLinkStore(db),
    // Without a configured holder mint every balance read reports "unavailable" (null), never a made-up 0.
    holderBalances: o.holderBalances ?? createHolderBalanceClient({ rpcUrl: 'http://127.0.0.1:9/', mint: undefined }),
    walletSignup: { ...DEFAULT_WALLET_SIGNUP, thresholds: access.holderThresholds, ...o.walletSignup },
    temporal: o.temporal,
    usageStore,
    quotaCounter: createQuotaCounter(usageStore, { onRefundFailed: (err, keyId, n) => o.log.warn({ err, keyId, n }, 'quota refund failed; the calls stay counted') }),
    publicPostLimiter: createPublicPostLimiter(db, publicPostRateLimits({ ...DEFAULT_PUBLIC_POST_LIMITS, ...o.publicPostLimits })),
    keyCache: createKeyCache((k) => apiKeyStore.findByPlaintext(k), access.keyCacheTtlMs),
    now,
    startedAt: now(),
    liveLatency: new LatencyWindow(5 * 60_000),
    heartbeatStore: createHeartbeatStore(db),
    watchdogStore: createWatchdogStore(db),
    priceStore: createPriceStore(db),
    marketConditionsStore: createMarketConditionsStore(db),
    liveStore,
    liveCache: createLiveSnapshotCache(liveStore, LIVE_SNAPSHOT, 500),
    liveDelayedCache: createLiveSnapshotCache(liveStore, LIVE_DELAYED_SNAPSHOT, 2000, { delayS: FREE_LIVE_DELAY_S }),
    liveStaleAfterS: o.liveStaleAfterS ?? 20,
    mintReadStore: createMintReadStore(db),
    readModel: createLiveReadModel(db),
    predictionStore: createPredictionStore(db),
    statsStore: createStatsStore(db),
    creatorStore: createCreatorStore(db),
    gateStore: createGateStore(db),
    accuracyStore: createAccuracyStore(db),
    modelFitStore,
    corpusSummary: () => createCorpusStore(db).summary(),
    modelVersions: async () => Object.fromEntries((await modelFitStore.latestFits()).map((f) => [`${f.predictor}@${f.ageBucket}`, f.version])),
    billing: {
      treasury: o.billing?.treasury ?? null,
      tokenPayment: tokenPaymentSettings(o.billing?.holderTokenMint, o.billing?.tokenPayment),
      intentWindowS: o.billing?.intentWindowS ?? 3600,
      publicBaseUrl: o.billing?.publicBaseUrl ?? 'http://127.0.0.1:8000',
      intentCreation: createIntentCreation(db, createPlanKeys),
      paymentIntentStore: createPaymentIntentStore(db),
      treasuryStore: createTreasuryStore(db),
      planKeys: createPlanKeys(db),
      paymentStarter: o.billing?.paymentStarter ?? null,
      burnStore: createBurnStore(db),
      holderTokenMint: o.billing?.holderTokenMint ?? null,
    },
  };
}

function tokenPaymentSettings(mint: string | undefined, o: { tokensPerSol: string; rpcUrl: string } | undefined): TokenPaymentSettings | null {
  if (!mint || !o) return null;
  return { mint, tokensPerSol: o.tokensPerSol, mintDecimals: createMintDecimalsReader({ url: o.rpcUrl, mint }) };
}
