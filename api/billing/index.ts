import { createMintDecimalsReader } from '../../clients/solana/mint-decimals-client';
import { createBurnStore } from '../../db/billing/burn-store';
import { createIntentCreation } from '../../db/billing/intent-creation';
import { createPaymentIntentStore } from '../../db/billing/payment-intent-store';
import { createPlanKeys } from '../../db/billing/plan-keys';
import { createTreasuryStore } from '../../db/billing/treasury-store';
import { publicBaseUrl, type Config } from '../../platform/config';
import { createPaymentIntentStarter, paymentTiming } from '../../workflows/billing/payment-intent-starter';
import { defineApiArea } from '../api-area';
import { burnRoutes } from './burn-routes';
import { keysRoutes } from './keys-routes';
import { payPageRoutes } from './pay-page-routes';
import type { TokenPaymentSettings } from './token-payment';
import { upgradeRoutes } from './upgrade-routes';

export const billingApi = defineApiArea({
  name: 'billing',
  deps: ({ cfg, db, log, temporal, now }) => ({
    treasury: cfg.billing.treasury ?? null,
    tokenPayment: tokenPaymentSettings(cfg),
    intentWindowS: cfg.billing.intentWindowS,
    publicBaseUrl: publicBaseUrl(cfg),
    intentCreation: createIntentCreation(db, createPlanKeys),
    paymentIntentStore: createPaymentIntentStore(db),
    treasuryStore: createTreasuryStore(db),
    planKeys: createPlanKeys(db),
    // The worker's outbox sweep starts what the API could not (no Temporal here, or a start that timed out).
    paymentStarter: temporal ? createPaymentIntentStarter(temporal.client, temporal.taskQueue, paymentTiming(cfg.billing), { timeoutMs: 3000 }) : null,
    burnStore: createBurnStore(db),
    holderTokenMint: cfg.access.holder.mint ?? null,
    log,
    now,
  }),
  parts: (d) => ({ pages: payPageRoutes(d), routes: [keysRoutes(), upgradeRoutes(d), burnRoutes(d)] }),
});

/** Paying with the holder token is offered where a rate and the mint are configured; its decimals come from the chain. */
function tokenPaymentSettings(cfg: Config): TokenPaymentSettings | null {
  const mint = cfg.access.holder.mint;
  const tokensPerSol = cfg.billing.tokensPerSol;
  if (!mint || !tokensPerSol) return null;
  return { mint, tokensPerSol, mintDecimals: createMintDecimalsReader({ url: cfg.access.holder.rpcUrl, mint }) };
}
