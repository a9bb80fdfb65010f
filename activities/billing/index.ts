import { createSmtpMailer } from '../../clients/email/smtp-mailer';
import { createBurnReader } from '../../clients/solana/burn-transaction';
import { treasuryTokenAccounts } from '../../clients/solana/token-accounts';
import { createTreasuryRpc, type TreasuryRpc } from '../../clients/solana/treasury-rpc-client';
import { createTreasuryScanner } from '../../clients/solana/treasury-scanner';
import { createTelegramBot } from '../../clients/telegram/telegram-bot';
import { createBurnStore } from '../../db/billing/burn-store';
import { createPaymentIntentStore } from '../../db/billing/payment-intent-store';
import { createPlanActivation } from '../../db/billing/plan-activation';
import { createPlanKeys } from '../../db/billing/plan-keys';
import { createReminderStore } from '../../db/billing/reminder-store';
import { createTreasuryStore } from '../../db/billing/treasury-store';
import { publicBaseUrl, type Config } from '../../platform/config';
import { createPaymentIntentStarter, paymentTiming } from '../../workflows/billing/payment-intent-starter';
import { defineActivityArea, type WorkerContext } from '../activity-area';
import { createBurnActivities } from './burn-activities';
import { createPaymentActivities } from './payment-activities';
import { createPaymentOutboxActivities } from './payment-outbox-activities';

export const billingActivities = defineActivityArea({
  name: 'billing',
  deps: ({ cfg, db, temporal, now }: WorkerContext) => {
    const { billing, messaging } = cfg;
    const treasuryStore = createTreasuryStore(db);
    return {
      paymentIntentStore: createPaymentIntentStore(db),
      planActivation: createPlanActivation(db, { planKeys: createPlanKeys, burnShareBps: billing.burnShareBps }),
      planKeys: createPlanKeys(db),
      reminderStore: createReminderStore(db),
      mailer: billing.smtpUrl ? createSmtpMailer({ url: billing.smtpUrl, from: billing.smtpFrom }) : null,
      bot: messaging.telegramBotToken ? createTelegramBot({ token: messaging.telegramBotToken, apiRoot: messaging.telegramApiRoot }) : null,
      publicBaseUrl: publicBaseUrl(cfg),
      treasuryStore,
      treasuryScanner: createTreasuryScanner({
        rpc: treasuryRpcFor(cfg),
        store: treasuryStore,
        treasury: billing.treasury ?? '',
        tokenAccounts: holderTokenAccounts(cfg),
        now,
      }),
      // Polls of many intents within one interval share a scan; a little under the interval so each poll sees a new one.
      scanMaxAgeMs: Math.max(250, billing.pollIntervalS * 1000 - 500),
      paymentStarter: createPaymentIntentStarter(temporal, cfg.temporal.taskQueue, paymentTiming(billing)),
      outboxGraceMs: 10_000,
      burnReader: createBurnReader({ url: cfg.ingest.solanaRpcUrl }),
      burnStore: createBurnStore(db),
      holderTokenMint: cfg.access.holder.mint ?? null,
      now,
    };
  },
  activities: (d) => ({ ...createPaymentActivities(d), ...createPaymentOutboxActivities(d), ...createBurnActivities(d) }),
});

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
