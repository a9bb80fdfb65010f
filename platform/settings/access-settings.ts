import { z } from 'zod';
import { DEFAULT_KEY_REQUIRED_AFTER } from '../../domain/access/beta-window';
import { DEFAULT_PUBLIC_POST_LIMITS, type PublicPostLimits } from '../../domain/access/public-post-limits';
import { DEFAULT_LEASE_POLICY, type LeasePolicy } from '../../domain/access/quota-lease-size';
import { DEV_KEY_REVEAL_SECRET } from '../../domain/access/sealed-key';
import { ingestSettings } from './ingest-settings';
import { platformSettings } from './platform-settings';
import { BASE58_ADDRESS, bool, defineSettings } from './settings';
import { refuseInProduction } from './simulated-inputs';

/** Paid access: keys and the beta window, holder-token access, limits on unauthenticated POSTs, holder signup. */
export const accessSettings = defineSettings(
  {
    NODE_ENV: platformSettings.env.NODE_ENV,
    DEMO_MODE: platformSettings.env.DEMO_MODE,
    SOLANA_RPC_URL: ingestSettings.env.SOLANA_RPC_URL,
    /** `false` serves keyed endpoints without any key check (benchmarks only; refused in production unless DEMO_MODE=true). */
    API_AUTH_ENABLED: bool.default(true),
    /** End of the free beta window: until then keyed endpoints also answer without a key. */
    API_KEY_REQUIRED_AFTER: z.iso.datetime({ offset: true }).default(DEFAULT_KEY_REQUIRED_AFTER),
    /** How long an API process reuses a key lookup; plan changes and revocations show within this. */
    API_KEY_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
    /**
     * Quota leases (api/access/quota-leases.ts): how long a process keeps a block of a key's calls before giving the
     * unused ones back, the largest block, and the remaining quota below which a key is counted call by call.
     */
    API_QUOTA_LEASE_MS: z.coerce.number().int().min(100).max(60_000).default(DEFAULT_LEASE_POLICY.leaseMs),
    /** The largest block of calls one API process leases for a key at once (0: no leases, every call counted in PostgreSQL). */
    API_QUOTA_LEASE_MAX_CALLS: z.coerce.number().int().min(0).max(1_000_000).default(DEFAULT_LEASE_POLICY.maxBlock),
    /** A key with fewer calls than this left today is counted call by call (exact near its limit). */
    API_QUOTA_LEASE_MIN_HEADROOM: z.coerce.number().int().min(0).default(DEFAULT_LEASE_POLICY.minHeadroom),
    /** A block is at most this fraction (1/n) of the key's remaining quota. */
    API_QUOTA_LEASE_HEADROOM_SHARE: z.coerce.number().int().min(1).default(DEFAULT_LEASE_POLICY.headroomShare),
    /** Holder token: its mint, the balances (UI units) that grant access, and the JSON-RPC its balances are read from. */
    HOLDER_TOKEN_MINT: z.string().regex(BASE58_ADDRESS, 'a base58 Solana address').optional(),
    /** Holder-token balances (UI units) for messaging-bot signal access and API (Builder-level) access. */
    HOLDER_SIGNALS_THRESHOLD: z.coerce.number().min(0).default(500_000),
    /** Holder-token balances (UI units) for messaging-bot signal access and API (Builder-level) access. */
    HOLDER_API_THRESHOLD: z.coerce.number().min(0).default(2_500_000),
    /** Solana JSON-RPC the holder balances (and, for token payments, the mint's decimals) are read from. */
    HOLDER_RPC_URL: z.string().url().optional(),
    /** How often a Temporal Schedule re-reads the balances of linked wallets, so access follows holdings. */
    HOLDER_RECHECK_INTERVAL_S: z.coerce.number().int().min(60).max(86_400).default(3600),
    /** Rate limits on unauthenticated POSTs (upgrade, holder signup): per client IP (IPv6 per /64) and overall; 0 = off. */
    PUBLIC_POST_PER_CLIENT_PER_MINUTE: z.coerce.number().int().min(0).default(DEFAULT_PUBLIC_POST_LIMITS.perClientPerMinute),
    /** Unauthenticated POSTs (upgrade, holder signup) one client IP (IPv6: /64) may make; 0 = no such limit. */
    PUBLIC_POST_PER_CLIENT_PER_HOUR: z.coerce.number().int().min(0).default(DEFAULT_PUBLIC_POST_LIMITS.perClientPerHour),
    /** Unauthenticated POSTs all clients together may make per minute; 0 = no such limit. */
    PUBLIC_POST_GLOBAL_PER_MINUTE: z.coerce.number().int().min(0).default(DEFAULT_PUBLIC_POST_LIMITS.globalPerMinute),
    /** Unauthenticated POSTs all clients together may make per hour; 0 = no such limit. */
    PUBLIC_POST_GLOBAL_PER_HOUR: z.coerce.number().int().min(0).default(DEFAULT_PUBLIC_POST_LIMITS.globalPerHour),
    /** How long a wallet signup waits for its signature. */
    WALLET_SIGNUP_TTL_S: z.coerce.number().int().min(30).max(86_400).default(900),
    /** Seals a signup's key for its 5-minute reveal window (API and worker must share it); production has no default. */
    KEY_REVEAL_SECRET: z.string().min(16).optional(),
  },
  (e) => {
    if (!e.API_AUTH_ENABLED) refuseInProduction(e, 'API_AUTH_ENABLED', 'is false (keyed endpoints without any key check)');
    return {
      access: {
        authEnabled: e.API_AUTH_ENABLED,
        keyRequiredAfter: new Date(e.API_KEY_REQUIRED_AFTER),
        keyCacheTtlMs: e.API_KEY_CACHE_TTL_MS,
        quotaLeases: {
          leaseMs: e.API_QUOTA_LEASE_MS,
          maxBlock: e.API_QUOTA_LEASE_MAX_CALLS,
          minHeadroom: e.API_QUOTA_LEASE_MIN_HEADROOM,
          headroomShare: e.API_QUOTA_LEASE_HEADROOM_SHARE,
        } satisfies LeasePolicy,
        holder: {
          mint: e.HOLDER_TOKEN_MINT,
          thresholds: { signals: e.HOLDER_SIGNALS_THRESHOLD, api: e.HOLDER_API_THRESHOLD },
          rpcUrl: e.HOLDER_RPC_URL ?? e.SOLANA_RPC_URL,
          recheckIntervalS: e.HOLDER_RECHECK_INTERVAL_S,
        },
        publicPostLimits: {
          perClientPerMinute: e.PUBLIC_POST_PER_CLIENT_PER_MINUTE,
          perClientPerHour: e.PUBLIC_POST_PER_CLIENT_PER_HOUR,
          globalPerMinute: e.PUBLIC_POST_GLOBAL_PER_MINUTE,
          globalPerHour: e.PUBLIC_POST_GLOBAL_PER_HOUR,
        } satisfies PublicPostLimits,
        walletSignupTtlS: e.WALLET_SIGNUP_TTL_S,
        /** Undefined in production until set: holder signup then answers 503 instead of sealing under a known secret. */
        keyRevealSecret: e.KEY_REVEAL_SECRET ?? (e.NODE_ENV === 'production' ? undefined : DEV_KEY_REVEAL_SECRET),
      },
    };
  },
);
