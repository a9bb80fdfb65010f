import { z } from 'zod';
import { platformSettings } from './platform-settings';
import { csv, defineSettings } from './settings';
import { refuseSimulatedInProduction } from './simulated-inputs';

/** The ingest daemon's feeds, and the Solana nodes it (and the treasury, burns and holder balances) reads. */
export const ingestSettings = defineSettings(
  {
    NODE_ENV: platformSettings.env.NODE_ENV,
    DEMO_MODE: platformSettings.env.DEMO_MODE,
    /** Feeds the ingest daemon runs, comma-separated: simulator, replay, solana-logs, pumpportal (production must name one; the simulator needs DEMO_MODE there). */
    INGEST_FEEDS: z.string().default('simulator'),
    /** JSONL replay (`ingest/replay/FORMAT.md`); speed 0 = as fast as possible. */
    REPLAY_FILE: z.string().optional(),
    /** JSONL replay (`ingest/replay/FORMAT.md`); speed 0 = as fast as possible. */
    REPLAY_SPEED: z.coerce.number().min(0).max(1000).default(1),
    /** The simulated market (each start is a new run of the seed's market, see Feeds). */
    SIMULATOR_SEED: z.coerce.number().int().default(42),
    /** The simulated market (each start is a new run of the seed's market, see Feeds). */
    SIMULATOR_LAUNCHES_PER_S: z.coerce.number().min(0.001).max(50).default(0.3),
    /** The simulated market (each start is a new run of the seed's market, see Feeds). */
    SIMULATOR_GRADUATION_SHARE: z.coerce.number().min(0).max(1).default(0.05),
    /** Give the simulator's smart wallets a wallet-index record at start, so composite signals cross on a fresh demo. */
    SIMULATOR_SEED_SMART_WALLETS: z.enum(['true', 'false']).default('true'),
    /** Launches of seeded history generated before the simulator feed starts (0: none); never with a real feed or in production. */
    SIMULATOR_HISTORY_LAUNCHES: z.coerce.number().int().min(0).max(200_000).default(6_000),
    /** `logsSubscribe` websocket and JSON-RPC for gap backfill. */
    SOLANA_RPC_URL: z.string().url().default('https://api.mainnet-beta.solana.com'),
    /** `logsSubscribe` websocket and JSON-RPC for gap backfill. */
    SOLANA_WS_URL: z.string().url().default('wss://api.mainnet-beta.solana.com'),
    /** PumpPortal-style feed. */
    PUMPPORTAL_WS_URL: z.string().url().default('wss://pumpportal.fun/api/data'),
    /** The launchpad's Anchor IDL (JSON), needed by the solana-logs feed to decode events. */
    PUMP_IDL_PATH: z.string().optional(),
  },
  (e) => {
    const feeds = csv(e.INGEST_FEEDS);
    // The simulator brings its seeded history and smart wallets with it: refusing the feed refuses them too.
    if (feeds.includes('simulator')) refuseSimulatedInProduction(e, 'INGEST_FEEDS', `${e.INGEST_FEEDS} (the simulated market)`);
    return {
      ingest: {
        feeds,
        replayFile: e.REPLAY_FILE,
        replaySpeed: e.REPLAY_SPEED,
        simulator: {
          seed: e.SIMULATOR_SEED,
          launchesPerS: e.SIMULATOR_LAUNCHES_PER_S,
          graduationShare: e.SIMULATOR_GRADUATION_SHARE,
          seedSmartWallets: e.SIMULATOR_SEED_SMART_WALLETS === 'true',
          historyLaunches: e.SIMULATOR_HISTORY_LAUNCHES,
        },
        solanaRpcUrl: e.SOLANA_RPC_URL,
        solanaWsUrl: e.SOLANA_WS_URL,
        pumpPortalWsUrl: e.PUMPPORTAL_WS_URL,
        pumpIdlPath: e.PUMP_IDL_PATH,
      },
    };
  },
);
