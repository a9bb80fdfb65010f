import { PlanNotExtendable, type PlanKeyPort } from '../../domain/billing/plan-keys';
import { amountToPay } from '../../domain/billing/pay-with';
import { PLAN_DAYS } from '../../domain/billing/pricing';
import { createBurnStore } from './burn-store';
import { createPaymentIntentStore } from './payment-intent-store';
import type { Db } from '../db-handle';
import { asDb, knexOf } from '../knex-handle';

export type Activation = { keyId: number; planExpiresAt: Date; activatedAt: Date; firstTime: boolean };

export class IntentNotPayable extends Error {}

/**
 * Activates a paid intent's plan exactly once. One transaction locks the intent row, extends the key's plan (with
 * the intent as the grant's dedupe id), marks the intent activated and writes what it owes to burns — a SOL
 * payment's share of revenue, or a token payment's receipt — so a retried or concurrent activation finds
 * `activated_at` set and changes nothing.
 */
export function createPlanActivation(handle: Db, o: { planKeys: (db: Db) => PlanKeyPort; burnShareBps: number }) {
  const db = knexOf(handle);
  const burns = createBurnStore(handle);
  return {
    async activate(memo: string, now: Date): Promise<Activation> {
      return db.transaction(async (trx) => {
        const intent = await createPaymentIntentStore(asDb(trx)).getForUpdate(memo);
        if (!intent) throw new IntentNotPayable(`unknown intent ${memo}`);
        if (intent.activatedAt) return { keyId: intent.keyId, planExpiresAt: intent.planExpiresAt!, activatedAt: intent.activatedAt, firstTime: false };
        if (intent.status !== 'paid' || !intent.paidSignature) throw new IntentNotPayable(`intent ${memo} is ${intent.status}, not paid`);
        let planExpiresAt: Date;
        try {
          ({ planExpiresAt } = await o
            .planKeys(asDb(trx))
            .extendPlan({ grantId: `payment:${memo}`, keyId: intent.keyId, tier: intent.tier, plan: intent.plan, days: PLAN_DAYS[intent.plan], now }));
        } catch (e) {
          // The key changed after the intent was made (revoked): nothing to activate; an operator refunds the payment.
          if (e instanceof PlanNotExtendable) throw new IntentNotPayable(`intent ${memo}: ${e.message}`);
          throw e;
        }
        await trx('payment_intents').where({ memo }).update({ status: 'activated', activated_at: now, plan_expires_at: planExpiresAt });
        if (intent.payWith === 'token') {
          // The price paid in tokens is burned, under the signature that completed the payment. An overpayment's
          // excess is recorded on the intent for an operator to refund, as with SOL: burning it too would promise
          // tokens the treasury may have to give back. The revenue share is of SOL revenue; a token payment brings none.
          await burns.owePaymentReceipt(trx, { sourceSignature: intent.paidSignature, amountTokens: amountToPay(intent).amount, at: now });
        } else {
          // Revenue is the list price; an overpayment's excess is recorded on the intent for an operator to refund.
          await burns.commitRevenue(trx, { memo, revenueLamports: intent.amountLamports, shareBps: o.burnShareBps, at: now });
        }
        return { keyId: intent.keyId, planExpiresAt, activatedAt: now, firstTime: true };
      });
    },
  };
}
export type PlanActivation = ReturnType<typeof createPlanActivation>;
