import type { Client } from '@temporalio/client';
import type { ActivityDeps } from '../activities';
import { createKnnGradProbScorer } from '../activities/mint/knn-grad-prob-scorer';
import type { PriceClient } from '../clients/jupiter-price-client';
import { createPriceStore } from '../db/market/price-store';
import { createCorpusStore } from '../db/mint/corpus-store';
import { createLiveStore } from '../db/mint/live-store';
import { createMintReadStore } from '../db/mint/mint-read-store';
import { createOutcomeStore } from '../db/mint/outcome-store';
import { createPredictionStore } from '../db/mint/prediction-store';
import { createHeartbeatStore } from '../db/ops/heartbeat-store';
import { createWatchdogStore } from '../db/ops/watchdog-store';
import { createPaymentStarter, paymentTiming } from '../activities/billing/payment-starter';
import { createTreasuryScanner } from '../activities/billing/treasury-scanner';
import { createSmtpMailer } from '../clients/email/smtp-mailer';
import { createTreasuryRpc, type TreasuryRpc } from '../clients/solana/treasury-rpc-client';
import { createPaymentIntentStore } from '../db/billing/payment-intent-store';
import { createPlanActivation } from '../db/billing/plan-activation';
import { createPlanKeys } from '../db/billing/plan-keys';
import { createReminderStore } from '../db/billing/reminder-store';
import { createTreasuryStore } from '../db/billing/treasury-store';
import { publicBaseUrl, type Config } from '../platform/config';
import type { Knex } from '../platform/db';
import type { Logger } from '../platform/logger';
import { WORKFLOW_DEADLINES_S } from './workflow-deadlines';

/** Every activity dependency over one database; the worker's composition root and the tests share it. */
export function buildActivityDeps(db: Knex, o: { cfg: Config; temporal: Client; priceClient: PriceClient; log: Logger; now?: () => Date }): ActivityDeps {
  const now = o.now ?? (() => new Date());
  const { billing } = o.cfg;
  const treasury = billing.treasury ?? '';
  const treasuryStore = createTreasuryStore(db);
  return {
    ...billingDeps(db, o.cfg, now),
    treasuryStore,
    treasuryScanner: createTreasuryScanner({ rpc: treasuryRpcFor(o.cfg), store: treasuryStore, treasury, now }),
    paymentStarter: createPaymentStarter(o.temporal, o.cfg.temporal.taskQueue, paymentTiming(billing)),
    outboxGraceMs: 10_000,
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
    now,
  };
}

function billingDeps(db: Knex, cfg: Config, now: () => Date) {
  const { billing } = cfg;
  return {
    paymentIntentStore: createPaymentIntentStore(db),
    planActivation: createPlanActivation(db, { planKeys: createPlanKeys, burnShareBps: billing.burnShareBps }),
    planKeys: createPlanKeys(db),
    reminderStore: createReminderStore(db),
    mailer: billing.smtpUrl ? createSmtpMailer({ url: billing.smtpUrl, from: billing.smtpFrom }) : null,
    publicBaseUrl: publicBaseUrl(cfg),
    // Polls of many intents within one interval share a scan; a little under the interval so each poll sees a new one.
    scanMaxAgeMs: Math.max(250, billing.pollIntervalS * 1000 - 500),
    now,
  };
}

/** No treasury configured: no intent can exist, and a scan says why if one is ever asked for. */
function treasuryRpcFor(cfg: Config): TreasuryRpc {
  const treasury = cfg.billing.treasury;
  if (treasury) return createTreasuryRpc({ url: cfg.ingest.solanaRpcUrl, treasury });
  const refuse = () => Promise.reject(new Error('TREASURY_ADDRESS is not configured'));
  return { recentSignatures: refuse, transaction: refuse };
}
