import { z } from 'zod';
import { DEFAULT_KEY_REQUIRED_AFTER } from '../domain/access/beta-window';
import { DEV_KEY_REVEAL_SECRET } from '../domain/access/sealed-key';
import { DEFAULT_PUBLIC_POST_LIMITS, type PublicPostLimits } from '../domain/access/public-post-limits';
import { DECIMAL_STRING, parseDecimal } from '../domain/billing/decimal-units';

/**
 * The one typed configuration of every process. Parsed from the environment once, at start-up,
 * so a bad value stops the process before it serves anything.
 */
const bool = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');

const BASE58_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

const schema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),

  DATABASE_URL: z.string().url().optional(),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),

  TEMPORAL_ADDRESS: z.string().min(1).optional(),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('launchpad-main'),

  API_HOST: z.string().default('127.0.0.1'),
  API_PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  /** Response validation against openapi.yaml: on in tests and development, off in production for speed. */
  VALIDATE_RESPONSES: bool.optional(),
  PUBLIC_BASE_URL: z.string().url().optional(),
  /** Prometheus `/metrics` of the API, on an operator port of its own (never the public one). */
  API_METRICS_HOST: z.string().default('127.0.0.1'),
  API_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9465),
  /** How long a request waits for a database connection, and for one statement, before it answers 503. */
  API_DB_ACQUIRE_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(1000),
  API_DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5000),
  /** Deadline of one call to Temporal from a request (a workflow start, a health probe) before it answers 503. */
  API_TEMPORAL_CALL_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(1500),

  /** Where local clusters (Postgres, Temporal dev server) keep their data. */
  DATA_DIR: z.string().default('.data'),

  PRICE_SOURCE_URL: z.string().url().default('https://lite-api.jup.ag/price/v3'),
  PRICE_REFRESH_INTERVAL_S: z.coerce.number().int().min(10).max(3600).default(300),
  WATCHDOG_INTERVAL_S: z.coerce.number().int().min(10).max(3600).default(60),
  WATCHDOG_DISK_PATH: z.string().default('/'),
  /** Market temperature (/api/v1/conditions): refresh period and the history it needs before publishing. */
  CONDITIONS_REFRESH_S: z.coerce.number().int().min(10).max(3600).default(300),
  CONDITIONS_MIN_HISTORY_H: z.coerce.number().int().min(1).max(840).default(24),
  HEARTBEAT_INTERVAL_S: z.coerce.number().int().min(1).max(300).default(15),
  /** Daemons deployed in this topology (comma-separated); only these are expected to beat. */
  EXPECTED_DAEMONS: z
    .string()
    .default('api,worker')
    .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean))
    .pipe(z.array(z.enum(['api', 'worker', 'ingest', 'scheduler']))),
  WORKER_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
  TEMPORAL_CLI_PATH: z.string().optional(),

  /** Mint pipeline. */
  LIVE_WINDOW_S: z.coerce.number().int().min(60).max(86_400).default(300),
  LIVE_MAX_ENTRIES: z.coerce.number().int().min(10).max(5000).default(500),
  LIVE_REFRESH_MS: z.coerce.number().int().min(250).max(60_000).default(2000),
  /** A live snapshot older than this (beyond its promised delay) is served marked stale and turns /api/health degraded. */
  LIVE_STALE_AFTER_S: z.coerce.number().int().min(5).max(3600).default(20),
  MODEL_REFIT_EVERY_S: z.coerce.number().int().min(10).max(86_400).default(600),
  CORPUS_LIMIT: z.coerce.number().int().min(100).max(5_000_000).default(200_000),
  /** Accuracy page: recompute period, and how many days of resolved forward predictions it covers. */
  ACCURACY_REFRESH_S: z.coerce.number().int().min(10).max(86_400).default(300),
  ACCURACY_WINDOW_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** Feeds the ingest daemon runs, comma-separated: simulator, replay, solana-logs, pumpportal. */
  INGEST_FEEDS: z.string().default('simulator'),
  REPLAY_FILE: z.string().optional(),
  REPLAY_SPEED: z.coerce.number().min(0).max(1000).default(1),
  SIMULATOR_SEED: z.coerce.number().int().default(42),
  SIMULATOR_LAUNCHES_PER_S: z.coerce.number().min(0.001).max(50).default(0.3),
  SIMULATOR_GRADUATION_SHARE: z.coerce.number().min(0).max(1).default(0.05),
  SOLANA_RPC_URL: z.string().url().default('https://api.mainnet-beta.solana.com'),
  SOLANA_WS_URL: z.string().url().default('wss://api.mainnet-beta.solana.com'),
  PUMPPORTAL_WS_URL: z.string().url().default('wss://pumpportal.fun/api/data'),
  /** The launchpad's Anchor IDL (JSON), needed by the solana-logs feed to decode events. */
  PUMP_IDL_PATH: z.string().optional(),

  /** Paid access. `false` serves keyed endpoints without any key check (benchmarks only). */
  API_AUTH_ENABLED: bool.default(true),
  /** End of the free beta window: until then keyed endpoints also answer without a key. */
  API_KEY_REQUIRED_AFTER: z.iso.datetime({ offset: true }).default(DEFAULT_KEY_REQUIRED_AFTER),
  /** How long an API process reuses a key lookup; plan changes and revocations show within this. Quotas are never cached. */
  API_KEY_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
  /** Holder token: its mint, the balances (UI units) that grant access, and the JSON-RPC its balances are read from. */
  HOLDER_TOKEN_MINT: z.string().regex(BASE58_ADDRESS, 'a base58 Solana address').optional(),
  HOLDER_SIGNALS_THRESHOLD: z.coerce.number().min(0).default(500_000),
  HOLDER_API_THRESHOLD: z.coerce.number().min(0).default(2_500_000),
  HOLDER_RPC_URL: z.string().url().optional(),
  /** How often a Temporal Schedule re-reads the balances of linked wallets, so access follows holdings. */
  HOLDER_RECHECK_INTERVAL_S: z.coerce.number().int().min(60).max(86_400).default(3600),
  /** Rate limits on unauthenticated POSTs (upgrade, holder signup): per client IP (IPv6 per /64) and overall; 0 = off. */
  PUBLIC_POST_PER_CLIENT_PER_MINUTE: z.coerce.number().int().min(0).default(DEFAULT_PUBLIC_POST_LIMITS.perClientPerMinute),
  PUBLIC_POST_PER_CLIENT_PER_HOUR: z.coerce.number().int().min(0).default(DEFAULT_PUBLIC_POST_LIMITS.perClientPerHour),
  PUBLIC_POST_GLOBAL_PER_MINUTE: z.coerce.number().int().min(0).default(DEFAULT_PUBLIC_POST_LIMITS.globalPerMinute),
  PUBLIC_POST_GLOBAL_PER_HOUR: z.coerce.number().int().min(0).default(DEFAULT_PUBLIC_POST_LIMITS.globalPerHour),
  /** How long a wallet signup waits for its signature. */
  WALLET_SIGNUP_TTL_S: z.coerce.number().int().min(30).max(86_400).default(900),
  /** Seals a signup's key for its 5-minute reveal window (API and worker must share it); production has no default. */
  KEY_REVEAL_SECRET: z.string().min(16).optional(),

  /** Plan payments: the wallet payers send SOL to; unset, /api/upgrade answers 503. */
  TREASURY_ADDRESS: z.string().regex(BASE58_ADDRESS, 'a base58 Solana address').optional(),
  PAYMENT_POLL_INTERVAL_S: z.coerce.number().int().min(1).max(300).default(5),
  PAYMENT_INTENT_WINDOW_S: z.coerce.number().int().min(60).max(7 * 86_400).default(3600),
  PLAN_REMINDER_LEAD_S: z.coerce.number().int().min(0).max(29 * 86_400).default(3 * 86_400),
  PAYMENT_OUTBOX_SWEEP_S: z.coerce.number().int().min(5).max(3600).default(30),
  /** Renewal reminders by email; unset, email reminders are recorded as not sent. */
  SMTP_URL: z.string().url().optional(),
  SMTP_FROM: z.string().min(3).default('billing@localhost'),
  /** The messaging bot (Telegram Bot API): its token from @BotFather, a secret; unset, bot messages are recorded as not sent. */
  TELEGRAM_BOT_TOKEN: z.string().regex(/^\d+:[\w-]{20,}$/, 'a Telegram bot token (<bot id>:<secret>)').optional(),
  /** Telegram's public Bot API server, or a self-hosted one. */
  TELEGRAM_API_ROOT: z.string().url().default('https://api.telegram.org'),
  /** Holder-token UI units per SOL of list price when a plan is paid with the token; 0 = paying with the token is not offered. */
  TOKEN_PAYMENT_TOKENS_PER_SOL: z.string().regex(DECIMAL_STRING, 'a plain decimal number of tokens per SOL').default('0'),
  /** Share of each activated plan's price committed to holder-token burns (0 = none). */
  BURN_REVENUE_SHARE: z.coerce.number().min(0).max(1).default(0),
});

export type Config = {
  env: 'development' | 'test' | 'production';
  logLevel: string;
  databaseUrl: string | undefined;
  dbPoolMax: number;
  temporal: { address: string | undefined; namespace: string; taskQueue: string };
  api: {
    host: string;
    port: number;
    validateResponses: boolean;
    publicBaseUrl: string | undefined;
    metrics: { host: string; port: number };
    db: { acquireTimeoutMs: number; statementTimeoutMs: number };
    temporalCallTimeoutMs: number;
  };
  dataDir: string;
  price: { sourceUrl: string; refreshIntervalS: number };
  watchdog: { intervalS: number; diskPath: string };
  conditions: { refreshS: number; minHistoryH: number };
  heartbeatIntervalS: number;
  expectedDaemons: readonly string[];
  workerMetricsPort: number;
  temporalCliPath: string | undefined;
  mint: { liveWindowS: number; liveMaxEntries: number; liveRefreshMs: number; liveStaleAfterS: number; modelRefitEveryS: number; corpusLimit: number };
  accuracy: { refreshIntervalS: number; windowDays: number };
  ingest: {
    feeds: string[];
    replayFile: string | undefined;
    replaySpeed: number;
    simulator: { seed: number; launchesPerS: number; graduationShare: number };
    solanaRpcUrl: string;
    solanaWsUrl: string;
    pumpPortalWsUrl: string;
    pumpIdlPath: string | undefined;
  };
  access: {
    authEnabled: boolean;
    keyRequiredAfter: Date;
    keyCacheTtlMs: number;
    holder: { mint: string | undefined; thresholds: { signals: number; api: number }; rpcUrl: string; recheckIntervalS: number };
    publicPostLimits: PublicPostLimits;
    walletSignupTtlS: number;
    /** Undefined in production until set: holder signup then answers 503 instead of sealing under a known secret. */
    keyRevealSecret: string | undefined;
  };
  billing: {
    treasury: string | undefined;
    pollIntervalS: number;
    intentWindowS: number;
    reminderLeadS: number;
    outboxSweepS: number;
    smtpUrl: string | undefined;
    smtpFrom: string;
    burnShareBps: number;
    /** Exact decimal string (token UI units per SOL); null while paying with the token is not offered. */
    tokensPerSol: string | null;
  };
  messaging: { telegramBotToken: string | undefined; telegramApiRoot: string };
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty value means unset (`FOO=` in an env file, `FOO: ${FOO:-}` in compose), so optional settings stay optional.
  const parsed = schema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== '')));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  const c = parsed.data;
  const tokensPerSol = parseDecimal(c.TOKEN_PAYMENT_TOKENS_PER_SOL).digits > 0n ? c.TOKEN_PAYMENT_TOKENS_PER_SOL : null;
  if (tokensPerSol && !c.HOLDER_TOKEN_MINT) throw new Error('Invalid configuration:\n  TOKEN_PAYMENT_TOKENS_PER_SOL: paying with the token needs HOLDER_TOKEN_MINT');
  return {
    env: c.NODE_ENV,
    logLevel: c.LOG_LEVEL,
    databaseUrl: c.DATABASE_URL,
    dbPoolMax: c.DB_POOL_MAX,
    temporal: { address: c.TEMPORAL_ADDRESS, namespace: c.TEMPORAL_NAMESPACE, taskQueue: c.TEMPORAL_TASK_QUEUE },
    api: {
      host: c.API_HOST,
      port: c.API_PORT,
      validateResponses: c.VALIDATE_RESPONSES ?? c.NODE_ENV !== 'production',
      publicBaseUrl: c.PUBLIC_BASE_URL,
      metrics: { host: c.API_METRICS_HOST, port: c.API_METRICS_PORT },
      db: { acquireTimeoutMs: c.API_DB_ACQUIRE_TIMEOUT_MS, statementTimeoutMs: c.API_DB_STATEMENT_TIMEOUT_MS },
      temporalCallTimeoutMs: c.API_TEMPORAL_CALL_TIMEOUT_MS,
    },
    dataDir: c.DATA_DIR,
    price: { sourceUrl: c.PRICE_SOURCE_URL, refreshIntervalS: c.PRICE_REFRESH_INTERVAL_S },
    watchdog: { intervalS: c.WATCHDOG_INTERVAL_S, diskPath: c.WATCHDOG_DISK_PATH },
    conditions: { refreshS: c.CONDITIONS_REFRESH_S, minHistoryH: c.CONDITIONS_MIN_HISTORY_H },
    heartbeatIntervalS: c.HEARTBEAT_INTERVAL_S,
    expectedDaemons: c.EXPECTED_DAEMONS,
    workerMetricsPort: c.WORKER_METRICS_PORT,
    temporalCliPath: c.TEMPORAL_CLI_PATH,
    mint: {
      liveWindowS: c.LIVE_WINDOW_S,
      liveMaxEntries: c.LIVE_MAX_ENTRIES,
      liveRefreshMs: c.LIVE_REFRESH_MS,
      liveStaleAfterS: c.LIVE_STALE_AFTER_S,
      modelRefitEveryS: c.MODEL_REFIT_EVERY_S,
      corpusLimit: c.CORPUS_LIMIT,
    },
    accuracy: { refreshIntervalS: c.ACCURACY_REFRESH_S, windowDays: c.ACCURACY_WINDOW_DAYS },
    ingest: {
      feeds: c.INGEST_FEEDS.split(',').map((x) => x.trim()).filter(Boolean),
      replayFile: c.REPLAY_FILE,
      replaySpeed: c.REPLAY_SPEED,
      simulator: { seed: c.SIMULATOR_SEED, launchesPerS: c.SIMULATOR_LAUNCHES_PER_S, graduationShare: c.SIMULATOR_GRADUATION_SHARE },
      solanaRpcUrl: c.SOLANA_RPC_URL,
      solanaWsUrl: c.SOLANA_WS_URL,
      pumpPortalWsUrl: c.PUMPPORTAL_WS_URL,
      pumpIdlPath: c.PUMP_IDL_PATH,
    },
    access: {
      authEnabled: c.API_AUTH_ENABLED,
      keyRequiredAfter: new Date(c.API_KEY_REQUIRED_AFTER),
      keyCacheTtlMs: c.API_KEY_CACHE_TTL_MS,
      holder: {
        mint: c.HOLDER_TOKEN_MINT,
        thresholds: { signals: c.HOLDER_SIGNALS_THRESHOLD, api: c.HOLDER_API_THRESHOLD },
        rpcUrl: c.HOLDER_RPC_URL ?? c.SOLANA_RPC_URL,
        recheckIntervalS: c.HOLDER_RECHECK_INTERVAL_S,
      },
      publicPostLimits: {
        perClientPerMinute: c.PUBLIC_POST_PER_CLIENT_PER_MINUTE,
        perClientPerHour: c.PUBLIC_POST_PER_CLIENT_PER_HOUR,
        globalPerMinute: c.PUBLIC_POST_GLOBAL_PER_MINUTE,
        globalPerHour: c.PUBLIC_POST_GLOBAL_PER_HOUR,
      },
      walletSignupTtlS: c.WALLET_SIGNUP_TTL_S,
      keyRevealSecret: c.KEY_REVEAL_SECRET ?? (c.NODE_ENV === 'production' ? undefined : DEV_KEY_REVEAL_SECRET),
    },
    billing: {
      treasury: c.TREASURY_ADDRESS,
      pollIntervalS: c.PAYMENT_POLL_INTERVAL_S,
      intentWindowS: c.PAYMENT_INTENT_WINDOW_S,
      reminderLeadS: c.PLAN_REMINDER_LEAD_S,
      outboxSweepS: c.PAYMENT_OUTBOX_SWEEP_S,
      smtpUrl: c.SMTP_URL,
      smtpFrom: c.SMTP_FROM,
      burnShareBps: Math.round(c.BURN_REVENUE_SHARE * 10_000),
      tokensPerSol,
    },
    messaging: { telegramBotToken: c.TELEGRAM_BOT_TOKEN, telegramApiRoot: c.TELEGRAM_API_ROOT.replace(/\/+$/, '') },
  };
}

/** Where this deployment is reachable from outside (links in payment pages and emails). */
export function publicBaseUrl(cfg: Config): string {
  return (cfg.api.publicBaseUrl ?? `http://${cfg.api.host}:${cfg.api.port}`).replace(/\/+$/, '');
}

/** For processes that cannot run without a database or Temporal: fail fast with a clear message. */
export function requireSetting<T>(value: T | undefined, name: string): T {
  if (value === undefined) throw new Error(`${name} is required for this process`);
  return value;
}
