import { createHolderBalanceClient } from '../../clients/solana/holder-balance-client';
import { createApiKeyStore } from '../../db/access/api-key-store';
import { createPublicPostLimiter } from '../../db/access/public-post-limiter';
import { createUsageStore } from '../../db/access/usage-store';
import { createWalletLinkStore } from '../../db/access/wallet-link-store';
import { publicPostRateLimits } from '../../domain/access/public-post-limits';
import { createWalletSignupStarter } from '../../workflows/access/wallet-signup-starter';
import { defineApiArea } from '../api-area';
import { createClientAddress } from '../http/client-address';
import { createKeyCache } from './key-cache';
import { createAccessCheck, keyAuth, type AccessSettings } from './key-auth';
import { meRoutes } from './me-routes';
import { publicPostLimit } from './public-post-limit';
import { createQuotaLeases } from './quota-leases';
import { walletLinkRoutes } from './wallet-link-routes';
import { walletSignupRoutes } from './wallet-signup-routes';

/** How long a holder signup's poll shows the key it minted. */
const KEY_VISIBLE_S = 300;

export const accessApi = defineApiArea({
  name: 'access',
  deps: ({ cfg, db, log, temporal, now, keyedReads, onStop }) => {
    const apiKeyStore = createApiKeyStore(db, { now });
    const usageStore = createUsageStore(db);
    const settings: AccessSettings = {
      authEnabled: cfg.access.authEnabled,
      keyRequiredAfter: cfg.access.keyRequiredAfter,
      keyCacheTtlMs: cfg.access.keyCacheTtlMs,
      holderThresholds: cfg.access.holder.thresholds,
    };
    const quotaCounter = createQuotaLeases(usageStore, {
      policy: cfg.access.quotaLeases,
      onRefundFailed: (err, keyId, n) => log.warn({ err, keyId, n }, 'quota refund failed; the calls stay counted'),
      onReturnFailed: (err) => log.warn({ err }, 'returning unused leased calls failed; they stay counted today'),
    });
    // A stopping process gives its unused leased calls back before it closes the pool.
    onStop(() => quotaCounter.release());
    return {
      settings,
      apiKeyStore,
      usageStore,
      keyCache: createKeyCache((k) => apiKeyStore.findByPlaintext(k), settings.keyCacheTtlMs),
      quotaCounter,
      publicPostLimiter: createPublicPostLimiter(db, publicPostRateLimits(cfg.access.publicPostLimits)),
      clientOf: createClientAddress(cfg.api.proxies),
      walletLinkStore: createWalletLinkStore(db),
      // Without a configured holder mint every balance read reports "unavailable" (null), never a made-up 0.
      holderBalances: createHolderBalanceClient({ rpcUrl: cfg.access.holder.rpcUrl, mint: cfg.access.holder.mint }),
      /** Holder signup runs as workflows; absent when this process runs without Temporal (init and sign answer 503). */
      signups: temporal && createWalletSignupStarter(temporal.client, temporal.taskQueue),
      signupTtlS: cfg.access.walletSignupTtlS,
      keyVisibleS: KEY_VISIBLE_S,
      keyRevealSecret: cfg.access.keyRevealSecret,
      publicBaseUrl: cfg.api.publicBaseUrl,
      now,
      keyedReads,
    };
  },
  parts: (d) => {
    const check = createAccessCheck({ keys: d.keyCache, usage: d.usageStore, counter: d.quotaCounter, settings: d.settings, now: d.now });
    // The keyed reads answered before Express run this same check (api/http/keyed-reads.ts).
    d.keyedReads.checkWith(check);
    return {
      guards: [
        // Keys, tiers and quotas for every operation openapi.yaml marks as keyed; public operations pass through.
        keyAuth(check),
        // Rate limits for unauthenticated POSTs (upgrade, holder signup), which write durable rows for anyone.
        publicPostLimit({ limiter: d.publicPostLimiter, now: d.now, clientOf: d.clientOf }),
      ],
      routes: [
        meRoutes(d),
        walletLinkRoutes(d),
        walletSignupRoutes({
          signups: d.signups,
          store: d.walletLinkStore,
          settings: {
            ttlS: d.signupTtlS,
            keyVisibleS: d.keyVisibleS,
            thresholds: d.settings.holderThresholds,
            keyRevealSecret: d.keyRevealSecret,
            publicBaseUrl: d.publicBaseUrl,
          },
          now: d.now,
        }),
      ],
    };
  },
});
