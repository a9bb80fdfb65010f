import { ApplicationFailure } from '@temporalio/activity';
import type { Mailer } from '../../clients/email/smtp-mailer';
import type { PaymentIntentStore } from '../../db/billing/payment-intent-store';
import { IntentNotPayable, type PlanActivation } from '../../db/billing/plan-activation';
import type { ReminderChannel, ReminderStore } from '../../db/billing/reminder-store';
import type { TreasuryStore } from '../../db/billing/treasury-store';
import { decidePayment, intentStatusAfter } from '../../domain/billing/payment-matching';
import type { PlanKeyPort } from '../../domain/billing/plan-keys';
import { lamportsToSolString } from '../../domain/billing/pricing';
import type { TreasuryScanner } from './treasury-scanner';

export type PaymentDeps = {
  paymentIntentStore: PaymentIntentStore;
  treasuryStore: TreasuryStore;
  treasuryScanner: TreasuryScanner;
  planActivation: PlanActivation;
  planKeys: PlanKeyPort;
  reminderStore: ReminderStore;
  /** Null when SMTP_URL is not configured: email reminders are recorded as failed with that reason. */
  mailer: Mailer | null;
  /** Where reminders tell the payer to renew (the API's base URL). */
  publicBaseUrl: string;
  /** A treasury scan younger than this serves a poll (several intents polling share one scan). */
  scanMaxAgeMs: number;
  now: () => Date;
};

export type PaymentCheck = { status: 'pending' | 'underpaid' | 'paid' | 'expired' | 'activated'; receivedLamports: string; countedLamports: string; paidSignature: string | null };
export type PlanEnd = 'reverted' | 'renewed' | 'already_free';

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
        return { status: 'activated', receivedLamports: '0', countedLamports: intent.countedLamports.toString(), paidSignature: intent.paidSignature };
      }
      await d.treasuryScanner.ensureFresh(d.scanMaxAgeMs, new Date(intent.createdAt.getTime() - SCAN_MARGIN_MS));
      const decision = decidePayment({ amountLamports: intent.amountLamports, expiresAt: intent.expiresAt }, await d.treasuryStore.transfersFor(input.memo));
      const now = d.now();
      // The workflow calls the final check only once its own clock has passed `expires_at`.
      const status = intentStatusAfter(decision, input.final);
      await d.paymentIntentStore.recordDecision(input.memo, decision, status, now);
      return { status, receivedLamports: decision.receivedLamports.toString(), countedLamports: decision.countedLamports.toString(), paidSignature: decision.completedBy };
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
     * meanwhile (its plan now ends later; the renewing intent reminds). Recorded either way it goes: email when
     * the payer gave one, otherwise queued for the messaging bot when a Telegram user was given.
     */
    async sendPlanReminder(input: { memo: string }): Promise<{ renewed: boolean; channel: ReminderChannel | null; status: string | null }> {
      const intent = await mustGet(input.memo);
      const key = await keyOf(intent.keyId);
      const planEnd = intent.planExpiresAt;
      if (!planEnd) throw ApplicationFailure.nonRetryable(`payment intent ${input.memo} was never activated`, 'NotActivated');
      if (key.planExpiresAt && key.planExpiresAt.getTime() > planEnd.getTime()) return { renewed: true, channel: null, status: null };
      const channel: ReminderChannel = intent.email ? 'email' : intent.telegramId ? 'telegram' : 'none';
      const recipient = intent.email ?? (intent.telegramId ? String(intent.telegramId) : null);
      const initial = channel === 'email' ? 'sending' : channel === 'telegram' ? 'queued_for_bot' : 'no_contact';
      const now = d.now();
      const r = await d.reminderStore.begin({ intentMemo: intent.memo, keyId: key.id, planExpiresAt: planEnd, channel, recipient, status: initial }, now);
      if (r.channel !== 'email' || r.status === 'sent') return { renewed: false, channel: r.channel, status: r.status };
      if (!d.mailer) {
        await d.reminderStore.finish(intent.memo, { status: 'failed', error: 'SMTP_URL is not configured' }, now);
        return { renewed: false, channel: 'email', status: 'failed' };
      }
      const renewUrl = `${d.publicBaseUrl}/api/upgrade`;
      const text = [
        `Your ${intent.tier} plan on API key ${intent.keyPrefix}… ends at ${planEnd.toISOString()}.`,
        '',
        'There is no recurring charge: to keep the plan, create a new payment intent for the same key',
        `(POST ${renewUrl} with "key") and pay it before then. The new period starts where this one ends.`,
        '',
        `Last payment: ${lamportsToSolString(intent.amountLamports)} SOL, memo ${intent.memo}.`,
      ].join('\n');
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
