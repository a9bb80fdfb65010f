import { ApplicationFailure } from '@temporalio/activity';
import type { Mailer } from '../../clients/email/smtp-mailer';
import { BotRecipientRefused, type MessagingBot } from '../../clients/telegram/telegram-bot';
import type { PaymentIntent, PaymentIntentStore } from '../../db/billing/payment-intent-store';
import { IntentNotPayable, type PlanActivation } from '../../db/billing/plan-activation';
import type { ReminderChannel, ReminderStore } from '../../db/billing/reminder-store';
import type { TreasuryStore } from '../../db/billing/treasury-store';
import { amountToPay, paymentUnitOf, priceUnitsOf } from '../../domain/billing/pay-with';
import { decidePayment, intentStatusAfter } from '../../domain/billing/payment-matching';
import type { PlanKeyPort } from '../../domain/billing/plan-keys';
import type { TreasuryScanner } from '../../clients/solana/treasury-scanner';
import type { PaymentCheck, PlanEnd } from '../../workflows/billing/payment-intent-contract';

export type PaymentDeps = {
  paymentIntentStore: PaymentIntentStore;
  treasuryStore: TreasuryStore;
  treasuryScanner: TreasuryScanner;
  planActivation: PlanActivation;
  planKeys: PlanKeyPort;
  reminderStore: ReminderStore;
  /** Null when SMTP_URL is not configured: email reminders are recorded as failed with that reason. */
  mailer: Mailer | null;
  /** Null when TELEGRAM_BOT_TOKEN is not configured: messaging-bot reminders are recorded as failed with that reason. */
  bot: MessagingBot | null;
  /** Where reminders tell the payer to renew (the API's base URL). */
  publicBaseUrl: string;
  /** A treasury scan younger than this serves a poll (several intents polling share one scan). */
  scanMaxAgeMs: number;
  now: () => Date;
};

// The scan reaches back a little before the intent: clocks of payer, node and us differ.
const SCAN_MARGIN_MS = 10 * 60_000;

export function createPaymentActivities(d: PaymentDeps) {
  const mustGet = async (memo: string) => {
    const i = await d.paymentIntentStore.get(memo);
    // The workflow starts only after the intent row is durable: a missing row is a bug, never transient.
    if (!i) throw ApplicationFailure.nonRetryable(`unknown payment intent ${memo}`, 'UnknownIntent');
    return i;
  };
  const keyOf = async (keyId: number) => {
    const k = await d.planKeys.findById(keyId);
    if (!k) throw ApplicationFailure.nonRetryable(`payment intent key ${keyId} not found`, 'UnknownKey');
    return k;
  };

  return {
    /**
     * Looks at the treasury for this intent's memo and projects the decision onto the intent. `final` is the check
     * at or after `expires_at`: only then does an intent with nothing counted become `expired`. Fails (and is
     * retried by the workflow's policy) while the RPC node is unreachable.
     */
    async checkPayment(input: { memo: string; final: boolean }): Promise<PaymentCheck> {
      const intent = await mustGet(input.memo);
      if (intent.status === 'activated') {
        const counted = intent.payWith === 'token' ? intent.countedTokensRaw : intent.countedLamports;
        return { status: 'activated', receivedUnits: '0', countedUnits: counted.toString(), paidSignature: intent.paidSignature };
      }
      await d.treasuryScanner.ensureFresh(d.scanMaxAgeMs, new Date(intent.createdAt.getTime() - SCAN_MARGIN_MS));
      const transfers = await d.treasuryStore.transfersFor(input.memo, paymentUnitOf(intent));
      const decision = decidePayment({ amountUnits: priceUnitsOf(intent), expiresAt: intent.expiresAt }, transfers);
      const now = d.now();
      // The workflow calls the final check only once its own clock has passed `expires_at`.
      const status = intentStatusAfter(decision, input.final);
      await d.paymentIntentStore.recordDecision(input.memo, intent.payWith, decision, status, now);
      return { status, receivedUnits: decision.receivedUnits.toString(), countedUnits: decision.countedUnits.toString(), paidSignature: decision.completedBy };
    },

    /** Activates or extends the plan once per intent; a retry returns the first activation. */
    async activatePlan(input: { memo: string }): Promise<{ keyId: number; planExpiresAt: string; activatedAt: string; firstTime: boolean }> {
      try {
        const a = await d.planActivation.activate(input.memo, d.now());
        return { keyId: a.keyId, planExpiresAt: a.planExpiresAt.toISOString(), activatedAt: a.activatedAt.toISOString(), firstTime: a.firstTime };
      } catch (e) {
        if (e instanceof IntentNotPayable) throw ApplicationFailure.nonRetryable(e.message, 'IntentNotPayable');
        throw e;
      }
    },

    /**
     * The renewal reminder, shortly before the plan this intent paid for ends. Skipped when the key was renewed
     * meanwhile (its plan now ends later; the renewing intent reminds). Email when the payer gave one, otherwise a
     * messaging-bot message when a Telegram user was given; recorded either way it goes. The row is written before
     * sending and marked sent after, so a retry after a crash in between can send twice but never skips one.
     */
    async sendPlanReminder(input: { memo: string }): Promise<{ renewed: boolean; channel: ReminderChannel | null; status: string | null }> {
      const intent = await mustGet(input.memo);
      const key = await keyOf(intent.keyId);
      const planEnd = intent.planExpiresAt;
      if (!planEnd) throw ApplicationFailure.nonRetryable(`payment intent ${input.memo} was never activated`, 'NotActivated');
      if (key.planExpiresAt && key.planExpiresAt.getTime() > planEnd.getTime()) return { renewed: true, channel: null, status: null };
      const channel: ReminderChannel = intent.email ? 'email' : intent.telegramId ? 'telegram' : 'none';
      const recipient = intent.email ?? (intent.telegramId ? String(intent.telegramId) : null);
      const now = d.now();
      const r = await d.reminderStore.begin(
        { intentMemo: intent.memo, keyId: key.id, planExpiresAt: planEnd, channel, recipient, status: channel === 'none' ? 'no_contact' : 'sending' },
        now,
      );
      if (r.channel === 'none' || r.status === 'sent') return { renewed: false, channel: r.channel, status: r.status };
      const failed = async (error: string) => {
        await d.reminderStore.finish(intent.memo, { status: 'failed', error }, d.now());
        return { renewed: false, channel: r.channel, status: 'failed' };
      };
      const text = reminderText(intent, planEnd, `${d.publicBaseUrl}/api/upgrade`);
      if (r.channel === 'telegram') {
        if (!d.bot) return failed('TELEGRAM_BOT_TOKEN is not configured');
        try {
          const sent = await d.bot.send({ chatId: Number(r.recipient), text });
          await d.reminderStore.finish(intent.memo, { status: 'sent', messageId: String(sent.messageId) }, d.now());
          return { renewed: false, channel: 'telegram', status: 'sent' };
        } catch (e) {
          // The user blocked the bot or never started it: no retry will reach them. Anything else is retried.
          if (e instanceof BotRecipientRefused) return failed(e.message);
          throw e;
        }
      }
      if (!d.mailer) return failed('SMTP_URL is not configured');
      const messageId = `<plan-reminder.${intent.memo}@${new URL(d.publicBaseUrl).hostname}>`;
      const sent = await d.mailer.send({ to: r.recipient!, subject: `Your ${intent.tier} plan ends ${planEnd.toISOString().slice(0, 10)}`, text, messageId });
      await d.reminderStore.finish(intent.memo, { status: 'sent', messageId: sent.messageId }, d.now());
      return { renewed: false, channel: 'email', status: 'sent' };
    },

    /** The reminder could not be sent after its retries: the row says so, for an operator to follow up. */
    async recordReminderFailure(input: { memo: string; error: string }): Promise<{ renewed: boolean; channel: ReminderChannel | null; status: string | null }> {
      await d.reminderStore.finish(input.memo, { status: 'failed', error: input.error }, d.now());
      const r = await d.reminderStore.get(input.memo);
      return { renewed: false, channel: r?.channel ?? null, status: r?.status ?? null };
    },

    /** At the end of the paid period: back to free unless the key was renewed meanwhile. */
    async endPlan(input: { memo: string }): Promise<PlanEnd> {
      const intent = await mustGet(input.memo);
      const key = await keyOf(intent.keyId);
      const now = d.now();
      const outcome = await d.planKeys.revertIfLapsed(key.id, now);
      if (outcome !== 'already_free') await d.paymentIntentStore.recordPlanOutcome(intent.memo, outcome, now);
      return outcome;
    },
  };
}
export type PaymentActivities = ReturnType<typeof createPaymentActivities>;

/** The same words by email and by messaging bot: no secret in them, only the key's visible prefix. */
function reminderText(intent: PaymentIntent, planEnd: Date, renewUrl: string): string {
  const { amount, splToken } = amountToPay(intent);
  const paid = splToken ? `${amount} of token ${splToken}` : `${amount} SOL`;
  return [
    `Your ${intent.tier} plan on API key ${intent.keyPrefix}… ends at ${planEnd.toISOString()}.`,
    '',
    'There is no recurring charge: to keep the plan, create a new payment intent for the same key',
    `(POST ${renewUrl} with "key") and pay it before then. The new period starts where this one ends.`,
    '',
    `Last payment: ${paid}, memo ${intent.memo}.`,
  ].join('\n');
}
