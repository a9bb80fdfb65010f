import type { Knex } from 'knex';
import type { PayWith, TokenPrice } from '../../domain/billing/pay-with';
import type { IntentStatus, PaymentDecision } from '../../domain/billing/payment-matching';
import type { Plan, PurchasableTier } from '../../domain/billing/pricing';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export type PaymentIntent = {
  memo: string;
  tier: PurchasableTier;
  plan: Plan;
  /** The plan's list price; a token intent's `token.amountRaw` was computed from it. */
  amountLamports: bigint;
  payWith: PayWith;
  /** Null for a SOL intent. */
  token: TokenPrice | null;
  treasury: string;
  keyId: number;
  keyPrefix: string;
  keyMinted: boolean;
  email: string | null;
  telegramId: number | null;
  status: IntentStatus;
  countedLamports: bigint;
  excessLamports: bigint;
  /** The token counterparts of the lamport amounts; zero on a SOL intent. */
  countedTokensRaw: bigint;
  excessTokensRaw: bigint;
  paidSignature: string | null;
  signatures: { counted: string[]; after_completion: string[]; late: string[] };
  createdAt: Date;
  expiresAt: Date;
  paidAt: Date | null;
  activatedAt: Date | null;
  planExpiresAt: Date | null;
  planOutcome: 'reverted' | 'renewed' | null;
  workflowStartedAt: Date | null;
};

export type NewIntent = Pick<
  PaymentIntent,
  | 'memo'
  | 'tier'
  | 'plan'
  | 'amountLamports'
  | 'payWith'
  | 'token'
  | 'treasury'
  | 'keyId'
  | 'keyPrefix'
  | 'keyMinted'
  | 'email'
  | 'telegramId'
  | 'createdAt'
  | 'expiresAt'
>;

const toIntent = (r: any): PaymentIntent => ({
  memo: r.memo,
  tier: r.tier,
  plan: r.plan,
  amountLamports: BigInt(r.amount_lamports),
  payWith: r.pay_with,
  token: r.pay_with === 'token' ? { mint: r.token_mint, decimals: r.token_decimals, amountRaw: BigInt(r.amount_tokens_raw_text) } : null,
  treasury: r.treasury,
  keyId: r.key_id,
  keyPrefix: r.key_prefix,
  keyMinted: r.key_minted,
  email: r.email,
  telegramId: r.telegram_id,
  status: r.status,
  countedLamports: BigInt(r.counted_lamports),
  excessLamports: BigInt(r.excess_lamports),
  countedTokensRaw: BigInt(r.counted_tokens_raw_text),
  excessTokensRaw: BigInt(r.excess_tokens_raw_text),
  paidSignature: r.paid_signature,
  signatures: r.signatures,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  paidAt: r.paid_at,
  activatedAt: r.activated_at,
  planExpiresAt: r.plan_expires_at,
  planOutcome: r.plan_outcome,
  workflowStartedAt: r.workflow_started_at,
});

// numeric(20,0) token amounts as text: the pg number parser (platform/db.ts) would round past 2^53.
const INTENT_COLUMNS = ['*', ...['amount_tokens_raw', 'counted_tokens_raw', 'excess_tokens_raw'].map((c) => `${c}::text AS ${c}_text`)];

export function createPaymentIntentStore(handle: Db) {
  const db = knexOf(handle);
  return {
    async insert(i: NewIntent): Promise<void> {
      await db('payment_intents').insert({
        memo: i.memo,
        tier: i.tier,
        plan: i.plan,
        amount_lamports: i.amountLamports.toString(),
        pay_with: i.payWith,
        token_mint: i.token?.mint ?? null,
        token_decimals: i.token?.decimals ?? null,
        amount_tokens_raw: i.token?.amountRaw.toString() ?? null,
        treasury: i.treasury,
        key_id: i.keyId,
        key_prefix: i.keyPrefix,
        key_minted: i.keyMinted,
        email: i.email,
        telegram_id: i.telegramId,
        created_at: i.createdAt,
        expires_at: i.expiresAt,
      });
    },

    async get(memo: string): Promise<PaymentIntent | undefined> {
      const r = await db('payment_intents').where({ memo }).first(columns(db));
      return r ? toIntent(r) : undefined;
    },

    /** The intent, its row locked until the caller's transaction ends (the store is built over that transaction). */
    async getForUpdate(memo: string): Promise<PaymentIntent | undefined> {
      const r = await db('payment_intents').where({ memo }).forUpdate().first(columns(db));
      return r ? toIntent(r) : undefined;
    },

    async markWorkflowStarted(memo: string, at: Date): Promise<void> {
      await db('payment_intents').where({ memo }).whereNull('workflow_started_at').update({ workflow_started_at: at });
    },

    /** Intents whose workflow start a crash may have lost (created more than `graceMs` ago, never marked). */
    async unstarted(createdBefore: Date, limit: number): Promise<PaymentIntent[]> {
      const rows = await db('payment_intents')
        .select(columns(db))
        .whereNull('workflow_started_at')
        .where('created_at', '<', createdBefore)
        .orderBy('created_at')
        .limit(limit);
      return rows.map(toIntent);
    },

    /**
     * Projects the latest payment decision, in the intent's unit (`payWith`). Never moves an intent backwards: an
     * activated intent stays activated, and an intent already paid is not re-decided into anything else.
     */
    async recordDecision(memo: string, payWith: PayWith, d: PaymentDecision, status: Exclude<IntentStatus, 'activated'>, at: Date): Promise<void> {
      const unit = payWith === 'token' ? 'tokens_raw' : 'lamports';
      await db('payment_intents')
        .where({ memo })
        .whereNotIn('status', status === 'paid' ? ['activated'] : ['activated', 'paid'])
        .update({
          status,
          [`received_${unit}`]: d.receivedUnits.toString(),
          [`counted_${unit}`]: d.countedUnits.toString(),
          [`excess_${unit}`]: d.excessUnits.toString(),
          paid_signature: d.completedBy,
          signatures: JSON.stringify({ counted: d.counted, after_completion: d.afterCompletion, late: d.late }),
          paid_at: status === 'paid' ? db.raw('coalesce(paid_at, ?)', [at]) : null,
          checked_at: at,
        });
    },

    async recordPlanOutcome(memo: string, outcome: 'reverted' | 'renewed', at: Date): Promise<void> {
      await db('payment_intents').where({ memo }).whereNull('plan_outcome').update({ plan_outcome: outcome, plan_outcome_at: at });
    },
  };
}
const columns = (db: Knex) => INTENT_COLUMNS.map((c) => (c === '*' ? c : db.raw(c)));

export type PaymentIntentStore = ReturnType<typeof createPaymentIntentStore>;
