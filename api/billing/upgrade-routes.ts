import { randomBytes } from 'node:crypto';
import { Router } from 'express';
import type { PaymentIntentStarter } from '../../workflows/billing/payment-intent-starter';
import type { IntentCreation } from '../../db/billing/intent-creation';
import type { PaymentIntentStore } from '../../db/billing/payment-intent-store';
import type { TreasuryStore } from '../../db/billing/treasury-store';
import { paymentUnitOf, tokensUiString, type PayWith } from '../../domain/billing/pay-with';
import { memoFromRandomBytes, MEMO_RANDOM_BYTES } from '../../domain/billing/payment-memo';
import type { PlanKeyPort } from '../../domain/billing/plan-keys';
import { lamportsToSol, planPriceLamports, type Plan, type PurchasableTier } from '../../domain/billing/pricing';
import type { Logger } from '../../platform/logger';
import { HttpError, notFound } from '../http/http-error';
import { intentLinks, payWithFields } from './payment-intent-view';
import { tokenPriceOf, type TokenPaymentSettings } from './token-payment';
import { iso } from '../http/iso';

export type UpgradeRouteDeps = {
  /** Null until TREASURY_ADDRESS is configured: no intent can be paid, so none is created. */
  treasury: string | null;
  tokenPayment: TokenPaymentSettings | null;
  intentWindowS: number;
  publicBaseUrl: string;
  intentCreation: IntentCreation;
  paymentIntentStore: PaymentIntentStore;
  treasuryStore: TreasuryStore;
  planKeys: PlanKeyPort;
  /** Null where the API runs without Temporal (fuzzing); the worker's outbox sweep then starts the workflow. */
  paymentStarter: PaymentIntentStarter | null;
  log: Logger;
  now: () => Date;
};

type UpgradeBody = { tier?: PurchasableTier; plan?: Plan; pay_with?: PayWith; key?: unknown; email?: string; telegram_id?: number };

const keyError = (msg: string, type: string) => new HttpError(422, { detail: [{ loc: ['body', 'key'], msg, type }] });

export function upgradeRoutes(d: UpgradeRouteDeps): Router {
  const r = Router();

  r.post('/api/upgrade', async (req, res) => {
    const body = req.body as UpgradeBody;
    const tier = body.tier ?? 'pro';
    const plan = body.plan ?? 'monthly';
    const payWith = body.pay_with ?? 'sol';
    let key: { id: number; prefix: string } | null = null;
    if (body.key !== undefined) {
      // openapi.yaml leaves `key` unconstrained so that its validator never answers (and echoes) it: every check on
      // it is here, and none answers the value (no `input`): it is a secret. A key still waiting for its first
      // payment may be named: paying this intent activates it.
      if (typeof body.key !== 'string') throw keyError('must be a string: an API key', 'string_type');
      const found = await d.planKeys.findByPlaintext(body.key);
      if (!found) throw keyError('unknown or revoked API key', 'value_error');
      if (found.tier !== 'free' && found.planExpiresAt === null)
        throw keyError('this key has a contract plan without end; it is not extended by payment', 'value_error');
      key = { id: found.id, prefix: found.prefix };
    }
    // Bad input is answered as such whatever this deployment offers; only a valid request learns payments are off.
    if (!d.treasury)
      throw new HttpError(
        503,
        { error: 'unavailable', message: 'plan payments are not configured on this deployment (TREASURY_ADDRESS)', retry_after_s: 3600 },
        { 'Retry-After': '3600' },
      );
    const amountLamports = planPriceLamports(tier, plan);
    const token = payWith === 'token' ? await tokenPriceOf(d.tokenPayment, amountLamports) : null;
    const now = d.now();
    const { intent, plaintext } = await d.intentCreation.create({
      memo: memoFromRandomBytes(randomBytes(MEMO_RANDOM_BYTES)),
      tier,
      plan,
      amountLamports,
      payWith,
      token,
      treasury: d.treasury,
      email: body.email ?? null,
      telegramId: body.telegram_id ?? null,
      createdAt: now,
      expiresAt: new Date(now.getTime() + d.intentWindowS * 1000),
      key,
    });
    // The row is durable; starting its workflow now is the fast path, the outbox sweep the safety net.
    if (d.paymentStarter) {
      try {
        await d.paymentStarter.start(intent.memo, intent.expiresAt);
        await d.paymentIntentStore.markWorkflowStarted(intent.memo, d.now());
      } catch (err) {
        d.log.warn({ err, memo: intent.memo }, 'payment workflow not started; the outbox sweep will start it');
      }
    }
    const deeplinks = intentLinks(intent, d.publicBaseUrl);
    res.set('Cache-Control', 'no-store').json({
      memo: intent.memo,
      status: 'pending',
      amount_sol: lamportsToSol(intent.amountLamports),
      amount_lamports: Number(intent.amountLamports),
      ...payWithFields(intent),
      treasury: intent.treasury,
      tier,
      plan,
      expires_at: intent.expiresAt.toISOString(),
      deeplinks,
      api_key: plaintext,
      key_prefix: intent.keyPrefix,
      status_url: `/api/upgrade/${intent.memo}`,
      // The published CLI's names for the same things (README: accommodations for existing clients).
      deeplink_solana_pay: deeplinks.solana_pay,
      treasury_wallet: intent.treasury,
      new_key: plaintext,
      new_key_prefix: plaintext === null ? null : intent.keyPrefix,
    });
  });

  r.get('/api/upgrade/:memo', async (req, res) => {
    const i = await d.paymentIntentStore.get(req.params.memo);
    if (!i) throw notFound(`no payment intent with memo ${req.params.memo}`);
    const received = await d.treasuryStore.receivedFor(i.memo, paymentUnitOf(i));
    const signature = i.paidSignature ?? received.newestSignature;
    res.set('Cache-Control', 'no-store').json({
      memo: i.memo,
      status: i.status,
      tier: i.tier,
      plan: i.plan,
      amount_sol: lamportsToSol(i.amountLamports),
      amount_lamports: Number(i.amountLamports),
      paid_sol: lamportsToSol(received.lamports),
      paid_lamports: Number(received.lamports),
      excess_lamports: Number(i.excessLamports),
      ...payWithFields(i),
      paid_tokens: i.token ? tokensUiString(received.tokensRaw, i.token.decimals) : null,
      excess_tokens: i.token ? tokensUiString(i.excessTokensRaw, i.token.decimals) : null,
      treasury: i.treasury,
      key_prefix: i.keyPrefix,
      created_at: i.createdAt.toISOString(),
      expires_at: i.expiresAt.toISOString(),
      activated_at: iso(i.activatedAt),
      plan_expires_at: iso(i.planExpiresAt),
      signature,
      deeplinks: intentLinks(i, d.publicBaseUrl),
      // The published CLI polls for these names (README: accommodations for existing clients).
      fulfilled: i.status === 'activated',
      tx_signature: signature,
    });
  });

  return r;
}
