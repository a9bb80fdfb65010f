import type { Client } from '@temporalio/client';
import type { ActivityDeps } from '../activities';
import type { AccuracyDeps } from '../activities/accuracy/accuracy-activities';
import type { LiveProjectorDeps } from '../activities/mint/live-projector';
import { createKnnMintScorer } from '../activities/mint/knn-mint-scorer';
import type { PriceClient } from '../clients/jupiter-price-client';
import { createMarketConditionsStore } from '../db/market/market-conditions-store';
import { createPriceStore } from '../db/market/price-store';
import { createAccuracyStore } from '../db/accuracy/accuracy-store';
import { createGateStore } from '../db/accuracy/gate-store';
import { createModelFitStore } from '../db/accuracy/model-fit-store';
import { createApiKeyStore } from '../db/access/api-key-store';
import { createWalletLinkStore } from '../db/access/wallet-link-store';
import { createHolderBalanceClient } from '../clients/solana/holder-balance-client';
import { createBurnReader } from '../clients/solana/burn-transaction';
import { createBurnStore } from '../db/billing/burn-store';
import { createCorpusStore } from '../db/mint/corpus-store';
import { createLiveStore } from '../db/mint/live-store';
import { createIncrementalLiveModel } from '../db/mint/incremental-live-model';
import { createLiveReadModel } from '../db/mint/live-read-model';
import { createMintReadStore } from '../db/mint/mint-read-store';
import { createOutcomeStore } from '../db/mint/outcome-store';
import { createPredictionStore } from '../db/mint/prediction-store';
import { createHeartbeatStore } from '../db/ops/heartbeat-store';
import { createWatchdogStore } from '../db/ops/watchdog-store';
import { createPaymentIntentStarter, paymentTiming } from '../workflows/billing/payment-intent-starter';
import { createTreasuryScanner } from '../clients/solana/treasury-scanner';
import { createSmtpMailer } from '../clients/email/smtp-mailer';
import { createTelegramBot } from '../clients/telegram/telegram-bot';
import { treasuryTokenAccounts } from '../clients/solana/token-accounts';
import { createTreasuryRpc, type TreasuryRpc } from '../clients/solana/treasury-rpc-client';
import { createPaymentIntentStore } from '../db/billing/payment-intent-store';
import { createPlanActivation } from '../db/billing/plan-activation';
import { createPlanKeys } from '../db/billing/plan-keys';
import { createReminderStore } from '../db/billing/reminder-store';
import { createTreasuryStore } from '../db/billing/treasury-store';
import { publicBaseUrl, type Config } from '../platform/config';
import type { Knex } from '../platform/db';
import type { Logger } from '../platform/logger';
import { workflowDeadlinesS } from './workflow-deadlines';

/** Every activity dependency over one database; the worker's composition root and the tests share it. */
export function buildActivityDeps(db: Knex, o: { cfg: Config; temporal: Client; priceClient: PriceClient; log: Logger; now?: () => Date }): ActivityDeps {
  const now = o.now ?? (() => new Date());
  const { billing } = o.cfg;
  const treasury = billing.treasury ?? '';
  const treasuryStore = createTreasuryStore(db);
  return {
    ...billingDeps(db, o.cfg, now),
    treasuryStore,
    treasuryScanner: createTreasuryScanner({ rpc: treasuryRpcFor(o.cfg), store: treasuryStore, treasury, tokenAccounts: holderTokenAccounts(o.cfg), now }),
    paymentStarter: createPaymentIntentStarter(o.temporal, o.cfg.temporal.taskQueue, paymentTiming(billing)),
    outboxGraceMs: 10_000,
    watchdogStore: createWatchdogStore(db),
    heartbeatStore: createHeartbeatStore(db),
    temporal: o.temporal,
    diskPath: o.cfg.watchdog.diskPath,
    workflowDeadlinesS: workflowDeadlinesS(),
    heartbeatIntervalS: o.cfg.heartbeatIntervalS,
    watchdogIntervalS: o.cfg.watchdog.intervalS,
    expectedDaemons: o.cfg.expectedDaemons,
    priceClient: o.priceClient,
    priceStore: createPriceStore(db),
    mintReadStore: createMintReadStore(db),
    sourceName: 'jupiter-price-v3',
    marketConditionsStore: createMarketConditionsStore(db),
    conditionsMinHistoryH: o.cfg.conditions.minHistoryH,
    ...buildLiveProjectorDeps(db, {
      liveWindowS: o.cfg.mint.liveWindowS,
      liveMaxEntries: o.cfg.mint.liveMaxEntries,
      refreshIntervalS: Math.max(1, Math.round(o.cfg.mint.liveRefreshMs / 1000)),
      now,
    }),
    predictionStore: createPredictionStore(db),
    outcomeStore: createOutcomeStore(db),
    mintScorer: createKnnMintScorer({
      corpusStore: createCorpusStore(db),
      modelFitStore: createModelFitStore(db),
      refitEveryS: o.cfg.mint.modelRefitEveryS,
      corpusLimit: o.cfg.mint.corpusLimit,
      log: o.log,
      now: () => now().getTime(),
    }),
    dexPriceClient: o.priceClient,
    dexPriceSourceName: 'jupiter-price-v3',
    ...buildAccuracyDeps(db, { windowDays: o.cfg.accuracy.windowDays, now }),
    accuracyWindowDays: o.cfg.accuracy.windowDays,
    apiKeyStore: createApiKeyStore(db, { now }),
    walletLinkStore: createWalletLinkStore(db),
    holderBalances: createHolderBalanceClient({ rpcUrl: o.cfg.access.holder.rpcUrl, mint: o.cfg.access.holder.mint }),
    keyRevealSecret: o.cfg.access.keyRevealSecret,
    burnReader: createBurnReader({ url: o.cfg.ingest.solanaRpcUrl }),
    burnStore: createBurnStore(db),
    holderTokenMint: o.cfg.access.holder.mint ?? null,
    now,
  };
}

/** The live projector's dependencies (the worker's, and the fuzz seed's and tests' projectors). */
export function buildLiveProjectorDeps(db: Knex, o: { liveWindowS: number; liveMaxEntries: number; refreshIntervalS: number; now: () => Date }): LiveProjectorDeps {
  return {
    liveModel: createIncrementalLiveModel(db, { windowS: o.liveWindowS }),
    readModel: createLiveReadModel(db),
    liveStore: createLiveStore(db),
    liveMaxEntries: o.liveMaxEntries,
    refreshIntervalS: o.refreshIntervalS,
    now: o.now,
  };
}

export function buildAccuracyDeps(db: Knex, o: { windowDays: number; now: () => Date }): AccuracyDeps {
  return { db, accuracyStore: createAccuracyStore(db), gateStore: createGateStore(db), accuracyWindowDays: o.windowDays, now: o.now };
}

function billingDeps(db: Knex, cfg: Config, now: () => Date) {
  const { billing } = cfg;
  return {
    paymentIntentStore: createPaymentIntentStore(db),
    planActivation: createPlanActivation(db, { planKeys: createPlanKeys, burnShareBps: billing.burnShareBps }),
    planKeys: createPlanKeys(db),
    reminderStore: createReminderStore(db),
    mailer: billing.smtpUrl ? createSmtpMailer({ url: billing.smtpUrl, from: billing.smtpFrom }) : null,
    bot: cfg.messaging.telegramBotToken ? createTelegramBot({ token: cfg.messaging.telegramBotToken, apiRoot: cfg.messaging.telegramApiRoot }) : null,
    publicBaseUrl: publicBaseUrl(cfg),
    // Polls of many intents within one interval share a scan; a little under the interval so each poll sees a new one.
    scanMaxAgeMs: Math.max(250, billing.pollIntervalS * 1000 - 500),
    now,
  };
}

/** No treasury configured: no intent can exist, and a scan says why if one is ever asked for. */
function treasuryRpcFor(cfg: Config): TreasuryRpc {
  const treasury = cfg.billing.treasury;
  if (treasury) return createTreasuryRpc({ url: cfg.ingest.solanaRpcUrl, treasury, holderMint: cfg.access.holder.mint ?? null });
  const refuse = () => Promise.reject(new Error('TREASURY_ADDRESS is not configured'));
  return { recentSignatures: refuse, transaction: refuse };
}

/**
 * The treasury's holder-token accounts are watched whenever a holder mint is configured, whether or not paying with
 * the token is offered right now: an intent made before the offer was withdrawn is still watched until it expires.
 */
function holderTokenAccounts(cfg: Config): string[] {
  const { treasury } = cfg.billing;
  const mint = cfg.access.holder.mint;
  return treasury && mint ? treasuryTokenAccounts(treasury, mint) : [];
}
