import type { ActivityOverrides } from '../../activities';
import { createPaymentIntentStarter } from '../../workflows/billing/payment-intent-starter';
import { paymentWorkflowId, paymentStateQuery, type PaymentTiming } from '../../workflows/billing/payment-intent-contract';
import { randomAddress, startTreasuryNode } from '../fakes/solana-treasury-ledger';
import { startSmtpServer } from '../fakes/smtp-server';
import { startTelegramBotApiServer } from '../fakes/telegram-bot-api-server';
import { call, startApi } from './api-harness';
import { expectConforms } from './contract';
import { createTestDatabase } from './test-db';
import { startWorker, uniqueId } from './worker-harness';

export const PUBLIC_BASE = 'https://api.example.test';
const TEST_BOT_TOKEN = '123456789:test-bot-token-not-a-real-secret';

/**
 * The whole payment path on real parts: Postgres, a worker on the run's Temporal server, the API, the local Solana
 * RPC node with a treasury ledger, a local SMTP server and a local Telegram Bot API server. Timings are short so intents, reminders and plan ends
 * play out in seconds; `clock` is the activities' clock (the plan period is computed from it).
 */
export const HOLDER_DECIMALS = 6;

/** `tokensPerSol`: paying with the holder token is offered at this rate (its mint has HOLDER_DECIMALS decimals on the node). */
export async function startPaymentSystem(o: {
  intentWindowS: number;
  timing: PaymentTiming;
  burnShare?: number;
  tokensPerSol?: string;
  clock?: () => Date;
  overrides?: ActivityOverrides;
}) {
  const treasury = randomAddress();
  const holderMint = randomAddress();
  const t = await createTestDatabase();
  const { rpc, ledger } = await startTreasuryNode(treasury, { mint: holderMint, decimals: HOLDER_DECIMALS });
  const smtp = await startSmtpServer();
  const telegram = await startTelegramBotApiServer(TEST_BOT_TOKEN);
  const w = await startWorker(t.db, {
    // The clock of the payment activities (plan periods); the treasury scan keeps real time to judge its freshness.
    overrides: { ...o.overrides, billing: { ...(o.clock ? { now: o.clock } : {}), ...o.overrides?.billing } },
    env: {
      TREASURY_ADDRESS: treasury,
      SOLANA_RPC_URL: rpc.url,
      SMTP_URL: smtp.url,
      SMTP_FROM: 'billing@api.example.test',
      TELEGRAM_BOT_TOKEN: TEST_BOT_TOKEN,
      TELEGRAM_API_ROOT: telegram.apiRoot,
      PUBLIC_BASE_URL: PUBLIC_BASE,
      PAYMENT_POLL_INTERVAL_S: String(o.timing.pollIntervalS),
      PLAN_REMINDER_LEAD_S: String(o.timing.reminderLeadS),
      BURN_REVENUE_SHARE: String(o.burnShare ?? 0),
      HOLDER_TOKEN_MINT: holderMint,
      ...(o.tokensPerSol ? { TOKEN_PAYMENT_TOKENS_PER_SOL: o.tokensPerSol } : {}),
      TEMPORAL_TASK_QUEUE: uniqueId('payments'),
    },
  });
  const starter = createPaymentIntentStarter(w.client, w.taskQueue, o.timing);
  const api = await startApi(t.db, {
    env: {
      TREASURY_ADDRESS: treasury,
      PUBLIC_BASE_URL: PUBLIC_BASE,
      HOLDER_TOKEN_MINT: holderMint,
      HOLDER_RPC_URL: rpc.url,
      ...(o.tokensPerSol ? { TOKEN_PAYMENT_TOKENS_PER_SOL: o.tokensPerSol } : {}),
    },
    // Intents as short as the test's (below PAYMENT_INTENT_WINDOW_S's floor), started with the test's timings.
    overrides: { billing: { intentWindowS: o.intentWindowS, paymentStarter: starter } },
  });

  const status = async (memo: string) => {
    const r = await call(`${api.url}/api/upgrade/${memo}`);
    expectConforms('get', '/api/upgrade/{memo}', r.status, r.body);
    return r.body;
  };
  return {
    t,
    db: t.db,
    rpc,
    ledger,
    smtp,
    telegram,
    w,
    api,
    treasury,
    holderMint,
    async upgrade(body: Record<string, unknown> = {}) {
      const r = await call(`${api.url}/api/upgrade`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expectConforms('post', '/api/upgrade', r.status, r.body);
      if (r.status !== 200) throw new Error(`upgrade answered ${r.status}: ${JSON.stringify(r.body)}`);
      return r.body as Record<string, unknown> & {
        memo: string;
        amount_lamports: number;
        amount_tokens: string | null;
        api_key: string | null;
        key_prefix: string;
        expires_at: string;
        deeplinks: { solana_pay: string };
      };
    },
    status,
    /** Polls `cond` until it holds; fails naming `what` after `timeoutMs`. */
    async waitFor<T>(what: string, cond: () => Promise<T | false | undefined | null>, timeoutMs = 30_000): Promise<T> {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const v = await cond();
        if (v) return v;
        if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    waitForStatus(memo: string, wanted: string, timeoutMs = 30_000) {
      return this.waitFor(
        `intent ${memo} to be ${wanted}`,
        async () => {
          const s = await status(memo);
          return s.status === wanted ? s : undefined;
        },
        timeoutMs,
      );
    },
    workflowState: (memo: string) => w.client.workflow.getHandle(paymentWorkflowId(memo)).query(paymentStateQuery),
    workflowResult: (memo: string) => w.client.workflow.getHandle(paymentWorkflowId(memo)).result(),
    key: (prefix: string) => t.db('api_keys').where({ key_prefix: prefix }).first(),
    async stop() {
      await api.close();
      await w.stop();
      await smtp.close();
      await telegram.close();
      await rpc.close();
      await t.drop();
    },
  };
}
export type PaymentSystem = Awaited<ReturnType<typeof startPaymentSystem>>;
