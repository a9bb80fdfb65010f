import type { Client } from '@temporalio/client';
import { createApiKeyStore } from '../db/access/api-key-store';
import { createAlertRuleStore } from '../db/alerts/alert-rule-store';
import { createBotChatStore } from '../db/alerts/bot-chat-store';
import { createBotSendStore } from '../db/alerts/bot-send-store';
import { createBotWalletLinkStore } from '../db/alerts/bot-wallet-link-store';
import { createWatchlistStore } from '../db/alerts/watchlist-store';
import { createIntentCreation } from '../db/billing/intent-creation';
import { createPaymentIntentStore } from '../db/billing/payment-intent-store';
import { createPlanKeys } from '../db/billing/plan-keys';
import { createPredictionStore } from '../db/mint/prediction-store';
import type { Db } from '../db/db-handle';
import { probeUrlFor, publicBaseUrl, type Config } from '../platform/config';
import type { Logger } from '../platform/logger';
import { createWalletSignupStarter } from '../workflows/access/wallet-signup-starter';
import { createPaymentIntentStarter, paymentTiming } from '../workflows/billing/payment-intent-starter';
import { createBotHolderLink } from './bot-holder-link';
import { createBotUpdateHandler, type BotUpdateHandler } from './bot-update-handler';
import { createBotUpgrade } from './bot-upgrade';

/** Runs something once the update's transaction has committed (a workflow that reads the rows it wrote). */
export type Defer = (fn: () => Promise<void>) => void;
/** The bot's update handler over a database handle: the poller passes its transaction, so a command commits with its offset. */
export type BotHandlerOver = (h: Db, defer: Defer) => BotUpdateHandler;

export function buildBotHandler(o: {
  cfg: Config;
  db: Db;
  log: Logger;
  now: () => Date;
  temporal: Client | undefined;
  deleteMessage: (chatId: number, messageId: number) => Promise<void>;
}): BotHandlerOver {
  const { cfg, log, now, temporal } = o;
  const holderThresholds = cfg.access.holder.thresholds;
  const paymentStarter = temporal ? createPaymentIntentStarter(temporal, cfg.temporal.taskQueue, paymentTiming(cfg.billing), { timeoutMs: 3000 }) : null;
  const signups = temporal ? createWalletSignupStarter(temporal, cfg.temporal.taskQueue) : null;
  return (h, defer) => {
    const chatStore = createBotChatStore(h);
    return createBotUpdateHandler({
      keyStore: createApiKeyStore(h),
      ruleStore: createAlertRuleStore(h, { holderThresholds }),
      chatStore,
      sendStore: createBotSendStore(h),
      watchlistStore: createWatchlistStore(h, { holderThresholds }),
      predictionStore: createPredictionStore(h),
      holderThresholds,
      probeUrl: probeUrlFor(cfg),
      upgrade: createBotUpgrade({
        treasury: cfg.billing.treasury ?? null,
        intentWindowS: cfg.billing.intentWindowS,
        publicBaseUrl: publicBaseUrl(cfg),
        intentCreation: createIntentCreation(h, createPlanKeys),
        // Marked after the commit, outside the update's transaction.
        paymentIntentStore: createPaymentIntentStore(o.db),
        paymentStarter,
        defer,
        log,
        now,
      }),
      holderLink: createBotHolderLink({
        signups,
        walletLinks: createBotWalletLinkStore(h),
        chatStore,
        threshold: holderThresholds.signals,
        ttlS: cfg.access.walletSignupTtlS,
        publicBaseUrl: publicBaseUrl(cfg),
        now,
      }),
      deleteMessage: o.deleteMessage,
      now,
    });
  };
}
