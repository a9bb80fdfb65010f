import { z } from 'zod';
import { platformSettings } from './platform-settings';
import { bool, defineSettings, invalidSetting, port } from './settings';
import { refuseSimulatedInProduction } from './simulated-inputs';

/** Drift's public bucket (exchange_a); the program prefix its day files live under (clients/drift/drift-file-key.ts). */
const DRIFT_BUCKET = 'https://drift-historical-data-v2.s3.eu-west-1.amazonaws.com/program/dRiftyHA39MWEi3m9aunc5MzRF1JYuBsbn6VPcn33UH';
const DAY = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a UTC day, yyyy-mm-dd');

/**
 * The perps observatory: which live exchange it watches (Hyperliquid, or the seeded simulator serving Hyperliquid's
 * wire format on loopback: `npm start` sets `simulator`, nothing else does), the request-weight budget, the pollers'
 * periods, wallet discovery, and exchange_a's historical bucket and default import range.
 */
export const perpsSettings = defineSettings(
  {
    NODE_ENV: platformSettings.env.NODE_ENV,
    DEMO_MODE: platformSettings.env.DEMO_MODE,
    /** The perps observatory's live exchange; `simulator` serves Hyperliquid's wire format from a seeded market on loopback. Under `npm start`: `simulator`. */
    PERPS_EXCHANGE: z.enum(['hyperliquid', 'simulator']).default('hyperliquid'),
    /** The exchange's info API and websocket. */
    HYPERLIQUID_API_URL: z.string().url().default('https://api.hyperliquid.xyz'),
    /** The exchange's info API and websocket. */
    HYPERLIQUID_WS_URL: z.string().url().default('wss://api.hyperliquid.xyz/ws'),
    /** Weight per minute each worker process may spend (Hyperliquid allows 1200 per IP; the rest is for the stream's reconnects). */
    HYPERLIQUID_WEIGHT_PER_MINUTE: z.coerce.number().int().min(10).max(1200).default(900),
    /** The simulated exchange (PERPS_EXCHANGE=simulator): its loopback port, seed and population. */
    PERPS_SIMULATOR_PORT: port().default(8547),
    /** The simulated exchange: loopback port, seed, wallet population. */
    PERPS_SIMULATOR_SEED: z.coerce.number().int().default(7),
    /** The simulated exchange: loopback port, seed, wallet population. */
    PERPS_SIMULATOR_WALLETS: z.coerce.number().int().min(10).max(20_000).default(2000),
    /** Markets and asset contexts poll (one metaAndAssetCtxs, weight 20); also the mark-price sample period. */
    PERPS_MARKETS_INTERVAL_S: z.coerce.number().int().min(5).max(600).default(30),
    /** Snapshot sweep period; wallets due are snapshotted in batches within the budget. */
    PERPS_SNAPSHOT_SWEEP_S: z.coerce.number().int().min(2).max(600).default(10),
    /** Snapshot cadence of smart or whale wallets, and of the other watched wallets. */
    PERPS_SNAPSHOT_HOT_S: z.coerce.number().int().min(5).max(86_400).default(60),
    /** Snapshot sweep period; snapshot cadence of smart or whale wallets, and of the other watched wallets. */
    PERPS_SNAPSHOT_COLD_S: z.coerce.number().int().min(5).max(86_400).default(900),
    /** Share of the weight budget the snapshot sweep may plan to spend (the markets poll and fills take the rest). */
    PERPS_SNAPSHOT_BUDGET_SHARE: z.coerce.number().min(0.05).max(1).default(0.8),
    /** Least time between two fill refreshes of one wallet (its record: PnL, ROI, win rate). */
    PERPS_RECORD_REFRESH_S: z.coerce.number().int().min(0).max(86_400).default(900),
    /** A trade at least this large (USD) on the trades stream makes its taker a watched wallet. */
    PERPS_DISCOVERY_MIN_NOTIONAL_USD: z.coerce.number().min(0).default(100_000),
    /** A stream trade at least this large makes its taker a watched wallet; at most this many are watched. */
    PERPS_MAX_WATCHED_WALLETS: z.coerce.number().int().min(1).max(100_000).default(5000),
    /** The exchange's public leaderboard (the stats host, not the weighted /info API), read every PERPS_LEADERBOARD_EVERY_S. */
    PERPS_LEADERBOARD_URL: z.string().url().default('https://stats-data.hyperliquid.xyz/Mainnet/leaderboard'),
    /** The exchange's public leaderboard and how often it is read (the simulator serves its own). */
    PERPS_LEADERBOARD_EVERY_S: z.coerce
      .number()
      .int()
      .min(60)
      .max(7 * 86_400)
      .default(21_600),
    /** leaderboard-v1 (domain/perps/leaderboard-discovery.ts): this many by 30-day PnL among accounts worth at least the minimum; 0 = off. */
    PERPS_LEADERBOARD_TOP: z.coerce.number().int().min(0).max(10_000).default(300),
    /** Leaderboard-v1: how many wallets it watches (0 = off), by 30-day PnL among accounts worth at least this. */
    PERPS_LEADERBOARD_MIN_ACCOUNT_USD: z.coerce.number().min(0).default(10_000),
    /** Markets whose trades channel the ingest daemon follows (the top ones by 24 h volume). */
    PERPS_STREAM_MARKETS: z.coerce.number().int().min(1).max(500).default(30),
    /** exchange_a (Drift) historical files: the bucket's program prefix, and the default range of `npm run perps:import`. */
    DRIFT_DATA_URL: z.string().url().default(DRIFT_BUCKET),
    /** Default markets, UTC day range and parallel downloads of the import. */
    PERPS_IMPORT_MARKETS: z.string().default('SOL-PERP'),
    /** Default markets, UTC day range and parallel downloads of the import. */
    PERPS_IMPORT_FROM: DAY.default('2024-12-09'),
    /** Default markets, UTC day range and parallel downloads of the import. */
    PERPS_IMPORT_TO: DAY.default('2025-01-08'),
    /** Default markets, UTC day range and parallel downloads of the import. */
    PERPS_IMPORT_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(4),
    /** Each worker start imports the configured markets and range (files already imported are skipped); `npm start` sets it with the simulator. */
    PERPS_IMPORT_ON_START: bool.default(false),
  },
  (e) => {
    if (e.PERPS_IMPORT_FROM > e.PERPS_IMPORT_TO) invalidSetting('PERPS_IMPORT_FROM', `is after PERPS_IMPORT_TO (${e.PERPS_IMPORT_TO})`);
    const simulator = e.PERPS_EXCHANGE === 'simulator';
    if (simulator) refuseSimulatedInProduction(e, 'PERPS_EXCHANGE', 'simulator');
    const local = `127.0.0.1:${e.PERPS_SIMULATOR_PORT}`;
    return {
      perps: {
        exchange: e.PERPS_EXCHANGE,
        // The simulator answers in Hyperliquid's wire format, so the same client reads it: only the address changes.
        apiUrl: simulator ? `http://${local}` : e.HYPERLIQUID_API_URL,
        wsUrl: simulator ? `ws://${local}/ws` : e.HYPERLIQUID_WS_URL,
        weightPerMinute: e.HYPERLIQUID_WEIGHT_PER_MINUTE,
        simulator: { port: e.PERPS_SIMULATOR_PORT, seed: e.PERPS_SIMULATOR_SEED, wallets: e.PERPS_SIMULATOR_WALLETS },
        marketsIntervalS: e.PERPS_MARKETS_INTERVAL_S,
        snapshotSweepS: e.PERPS_SNAPSHOT_SWEEP_S,
        snapshotHotS: e.PERPS_SNAPSHOT_HOT_S,
        snapshotColdS: e.PERPS_SNAPSHOT_COLD_S,
        snapshotBudgetShare: e.PERPS_SNAPSHOT_BUDGET_SHARE,
        recordRefreshS: e.PERPS_RECORD_REFRESH_S,
        discoveryMinNotionalUsd: e.PERPS_DISCOVERY_MIN_NOTIONAL_USD,
        maxWatchedWallets: e.PERPS_MAX_WATCHED_WALLETS,
        streamMarkets: e.PERPS_STREAM_MARKETS,
        leaderboard: {
          url: simulator ? `http://${local}/Mainnet/leaderboard` : e.PERPS_LEADERBOARD_URL,
          everyS: e.PERPS_LEADERBOARD_EVERY_S,
          top: e.PERPS_LEADERBOARD_TOP,
          minAccountValueUsd: e.PERPS_LEADERBOARD_MIN_ACCOUNT_USD,
        },
        drift: {
          baseUrl: e.DRIFT_DATA_URL,
          importMarkets: e.PERPS_IMPORT_MARKETS.split(',')
            .map((m) => m.trim())
            .filter(Boolean),
          importFrom: e.PERPS_IMPORT_FROM,
          importTo: e.PERPS_IMPORT_TO,
          importConcurrency: e.PERPS_IMPORT_CONCURRENCY,
          importOnStart: e.PERPS_IMPORT_ON_START,
        },
      },
    };
  },
);
