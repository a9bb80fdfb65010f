import { randomBytes } from 'node:crypto';
import type { IntentCreation } from '../db/billing/intent-creation';
import type { PaymentIntentStore } from '../db/billing/payment-intent-store';
import type { ApiKeyRecord } from '../db/access/api-key-store';
import { solanaPayUrl } from '../domain/billing/payment-links';
import { memoFromRandomBytes, MEMO_RANDOM_BYTES } from '../domain/billing/payment-memo';
import { lamportsToSolString, planPriceLamports, type Plan, type PurchasableTier } from '../domain/billing/pricing';
import type { Logger } from '../platform/logger';
import type { PaymentIntentStarter } from '../workflows/billing/payment-intent-starter';

/** The label the API's links carry too (api/billing/payment-intent-view.ts), so a wallet shows one payee. */
const PAYMENT_LABEL = 'Launchpad API';

export type BotUpgradeDeps = {
  /** Null until TREASURY_ADDRESS is configured: no intent can be paid, so none is created. */
  treasury: string | null;
  intentWindowS: number;
  publicBaseUrl: string;
  intentCreation: IntentCreation;
  paymentIntentStore: Pick<PaymentIntentStore, 'markWorkflowStarted'>;
  /** Null where the bot has no Temporal client at hand: the billing outbox sweep then starts the workflow. */
  paymentStarter: PaymentIntentStarter | null;
  /** Runs after the update's transaction commits: the workflow reads the intent row, which must exist by then. */
  defer: (fn: () => Promise<void>) => void;
  log: Logger;
  now: () => Date;
};

/**
 * `/upgrade` in the bot: a payment intent for the chat's linked key, created exactly as `POST /api/upgrade` with that
 * key creates one (the same intent row, memo, price and workflow), so paying it extends that key's plan. The
 * intent names the chat as its Telegram recipient, so the renewal reminder comes back to this chat. The answer is
 * the intent's Solana Pay transfer request (https://docs.solanapay.com/spec), the same link the API answers.
 * SOL only: paying with the holder token needs its price read from the chain, which the API does.
 */
export function createBotUpgrade(d: BotUpgradeDeps) {
  return async (o: { chatId: number; key: ApiKeyRecord; tier: PurchasableTier; plan: Plan }): Promise<string> => {
    if (o.key.tier !== 'free' && o.key.planExpiresAt === null) return 'This key has a contract plan without end; it is not extended by payment.';
    if (!d.treasury) return 'Plan payments are not configured on this deployment yet; try again later.';
    const now = d.now();
    const amountLamports = planPriceLamports(o.tier, o.plan);
    const { intent } = await d.intentCreation.create({
      memo: memoFromRandomBytes(randomBytes(MEMO_RANDOM_BYTES)),
      tier: o.tier,
      plan: o.plan,
      amountLamports,
      payWith: 'sol',
      token: null,
      treasury: d.treasury,
      email: null,
      telegramId: o.chatId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + d.intentWindowS * 1000),
      key: { id: o.key.id, prefix: o.key.prefix },
    });
    // The row is durable once committed; starting its workflow then is the fast path, billing's outbox sweep the safety net.
    const starter = d.paymentStarter;
    if (starter)
      d.defer(async () => {
        try {
          await starter.start(intent.memo, intent.expiresAt);
          await d.paymentIntentStore.markWorkflowStarted(intent.memo, d.now());
        } catch (err) {
          d.log.warn({ err: String(err), memo: intent.memo }, 'payment workflow not started from the bot; the outbox sweep will start it');
        }
      });
    const amount = lamportsToSolString(amountLamports);
    const url = solanaPayUrl({
      recipient: intent.treasury,
      amount,
      memo: intent.memo,
      label: PAYMENT_LABEL,
      message: `${intent.tier} ${intent.plan} plan`,
    });
    return [
      `${o.tier} ${o.plan} plan for key ${o.key.prefix}…: ${amount} SOL, memo ${intent.memo}, pay by ${intent.expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
      `Solana Pay: ${url}`,
      `Pay page: ${d.publicBaseUrl}/pay/${intent.memo} · status: ${d.publicBaseUrl}/api/upgrade/${intent.memo}`,
      'The plan starts on this key as soon as the payment is confirmed.',
    ].join('\n');
  };
}
export type BotUpgrade = ReturnType<typeof createBotUpgrade>;
