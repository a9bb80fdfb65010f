import { z } from 'zod';
import { DECIMAL_STRING, parseDecimal } from '../../domain/billing/decimal-units';
import { accessSettings } from './access-settings';
import { BASE58_ADDRESS, defineSettings, invalidSetting } from './settings';

/** Plan payments: the treasury, intent timings, renewal reminders, burns, paying with the holder token. */
export const billingSettings = defineSettings(
  {
    HOLDER_TOKEN_MINT: accessSettings.env.HOLDER_TOKEN_MINT,
    /** The wallet payers send SOL to; unset, /api/upgrade answers 503. */
    TREASURY_ADDRESS: z.string().regex(BASE58_ADDRESS, 'a base58 Solana address').optional(),
    /** How often an open intent's workflow looks at the treasury (over `SOLANA_RPC_URL`). */
    PAYMENT_POLL_INTERVAL_S: z.coerce.number().int().min(1).max(300).default(5),
    /** How long an intent accepts payment (`expires_at`). */
    PAYMENT_INTENT_WINDOW_S: z.coerce
      .number()
      .int()
      .min(60)
      .max(7 * 86_400)
      .default(3600),
    /** How long before a plan ends the renewal reminder goes out. */
    PLAN_REMINDER_LEAD_S: z.coerce
      .number()
      .int()
      .min(0)
      .max(29 * 86_400)
      .default(3 * 86_400),
    /** Schedule of the sweep that starts intent workflows a crash left unstarted. */
    PAYMENT_OUTBOX_SWEEP_S: z.coerce.number().int().min(5).max(3600).default(30),
    /** Renewal reminders by email; unset, email reminders are recorded as not sent. */
    SMTP_URL: z.string().url().optional(),
    /** Renewal reminder email (`smtp://user:pass@host:587`, `smtps://…`); unset, email reminders are recorded as failed. */
    SMTP_FROM: z.string().min(3).default('billing@localhost'),
    /** Holder-token UI units per SOL of list price when a plan is paid with the token; 0 = paying with the token is not offered. */
    TOKEN_PAYMENT_TOKENS_PER_SOL: z.string().regex(DECIMAL_STRING, 'a plain decimal number of tokens per SOL').default('0'),
    /** Share of each activated plan's price committed to holder-token burns (0 = none). */
    BURN_REVENUE_SHARE: z.coerce.number().min(0).max(1).default(0),
  },
  (e) => {
    /** Exact decimal string (token UI units per SOL); null while paying with the token is not offered. */
    const tokensPerSol = parseDecimal(e.TOKEN_PAYMENT_TOKENS_PER_SOL).digits > 0n ? e.TOKEN_PAYMENT_TOKENS_PER_SOL : null;
    if (tokensPerSol && !e.HOLDER_TOKEN_MINT) invalidSetting('TOKEN_PAYMENT_TOKENS_PER_SOL', 'paying with the token needs HOLDER_TOKEN_MINT');
    return {
      billing: {
        treasury: e.TREASURY_ADDRESS,
        pollIntervalS: e.PAYMENT_POLL_INTERVAL_S,
        intentWindowS: e.PAYMENT_INTENT_WINDOW_S,
        reminderLeadS: e.PLAN_REMINDER_LEAD_S,
        outboxSweepS: e.PAYMENT_OUTBOX_SWEEP_S,
        smtpUrl: e.SMTP_URL,
        smtpFrom: e.SMTP_FROM,
        burnShareBps: Math.round(e.BURN_REVENUE_SHARE * 10_000),
        tokensPerSol,
      },
    };
  },
);
