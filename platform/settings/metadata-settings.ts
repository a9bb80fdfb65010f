import { z } from 'zod';
import { platformSettings } from './platform-settings';
import { bool, defineSettings, invalidSetting, port } from './settings';
import { refuseSimulatedInProduction } from './simulated-inputs';

/**
 * Launch metadata (`has_socials`, `metadata_ok`): the JSON each launch's on-chain URI points at, fetched by a
 * long-running workflow apart from scoring. METADATA_SOURCE=simulator sends `ipfs://` URIs to the simulated
 * gateway on loopback (ingest/metadata-simulator), which serves the simulator's launches: `npm start` chooses it
 * when every launch feed is the simulator, so the embedded default fills both fields offline.
 */
export const metadataSettings = defineSettings(
  {
    NODE_ENV: platformSettings.env.NODE_ENV,
    DEMO_MODE: platformSettings.env.DEMO_MODE,
    /** Fetch each new launch's metadata JSON; false leaves `has_socials` and `metadata_ok` null on every mint. */
    METADATA_FETCH_ENABLED: bool.default(true),
    /** Where `ipfs://` metadata URIs are fetched: an IPFS gateway, or (the offline embedded default) the simulated gateway on loopback. */
    METADATA_SOURCE: z.enum(['gateway', 'simulator']).default('gateway'),
    /** The IPFS gateway `ipfs://<cid>/<path>` is fetched from as `<gateway>/ipfs/<cid>/<path>`; chosen by the operator, so not address-guarded. */
    METADATA_IPFS_GATEWAY: z.string().url().default('https://ipfs.io'),
    /** The simulated gateway (METADATA_SOURCE=simulator): its loopback port. */
    METADATA_SIMULATOR_PORT: port().default(8549),
    /** One fetch, redirects included; a slow host never holds a fetch slot longer. */
    METADATA_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
    /** A metadata document is a few hundred bytes; a body past this is cut off and the fetch failed (too_large). */
    METADATA_MAX_BYTES: z.coerce.number().int().min(1024).max(10_000_000).default(65_536),
    /** Fetches in flight at once in one look of the fetcher (a look takes up to 4 × this many mints). */
    METADATA_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(8),
    /** Attempts per mint for retryable failures (timeouts, 5xx, resets); permanent ones are not retried. */
    METADATA_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
    /** Seconds before the first retry of a retryable failure, doubling after each. */
    METADATA_RETRY_AFTER_S: z.coerce.number().min(0).max(3600).default(30),
    /** Mints created within this many hours are fetched; older ones (history from before the fetcher) stay unfetched. */
    METADATA_LOOKBACK_H: z.coerce.number().min(1).max(720).default(24),
    /** How long an idle fetcher waits before it looks for new mints again. */
    METADATA_POLL_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
    /** Outcomes kept in memory per URI (documents and permanent failures), so a URI shared by many launches is fetched once. */
    METADATA_CACHE_ENTRIES: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
    /** Tests only: lets metadata URIs reach loopback and private addresses. Refused in production. */
    METADATA_ALLOW_PRIVATE_TARGETS: bool.default(false),
  },
  (e) => {
    const simulated = e.METADATA_SOURCE === 'simulator';
    if (simulated) refuseSimulatedInProduction(e, 'METADATA_SOURCE', 'simulator');
    if (e.NODE_ENV === 'production' && e.METADATA_ALLOW_PRIVATE_TARGETS) invalidSetting('METADATA_ALLOW_PRIVATE_TARGETS', 'never in production');
    return {
      metadata: {
        enabled: e.METADATA_FETCH_ENABLED,
        // The simulated gateway answers as a gateway does, so the same client reads it: only the address changes.
        ipfsGateway: simulated ? `http://127.0.0.1:${e.METADATA_SIMULATOR_PORT}` : e.METADATA_IPFS_GATEWAY,
        simulator: simulated ? { port: e.METADATA_SIMULATOR_PORT } : null,
        timeoutMs: e.METADATA_TIMEOUT_MS,
        maxBytes: e.METADATA_MAX_BYTES,
        concurrency: e.METADATA_CONCURRENCY,
        retry: { maxAttempts: e.METADATA_MAX_ATTEMPTS, firstRetryS: e.METADATA_RETRY_AFTER_S },
        lookbackH: e.METADATA_LOOKBACK_H,
        pollMs: e.METADATA_POLL_MS,
        cacheEntries: e.METADATA_CACHE_ENTRIES,
        allowPrivateTargets: e.METADATA_ALLOW_PRIVATE_TARGETS,
      },
    };
  },
);
