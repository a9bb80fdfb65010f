import { z } from 'zod';
import { bool, defineSettings, port } from './settings';

/** What every process needs: environment, logging, the database, Temporal, local data. */
export const platformSettings = defineSettings(
  {
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    /** A public demo: lets a NODE_ENV=production process run on simulated inputs or without key checks (simulated-inputs.ts). */
    DEMO_MODE: bool.default(false),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    DATABASE_URL: z.string().url().optional(),
    DB_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
    TEMPORAL_ADDRESS: z.string().min(1).optional(),
    TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
    TEMPORAL_TASK_QUEUE: z.string().min(1).default('launchpad-main'),
    TEMPORAL_CLI_PATH: z.string().optional(),
    /** Where local clusters (Postgres, Temporal dev server) keep their data. */
    DATA_DIR: z.string().default('.data'),
    WORKER_METRICS_PORT: port().default(9464),
  },
  (e) => ({
    env: e.NODE_ENV,
    demoMode: e.DEMO_MODE,
    logLevel: e.LOG_LEVEL as string,
    databaseUrl: e.DATABASE_URL,
    dbPoolMax: e.DB_POOL_MAX,
    temporal: { address: e.TEMPORAL_ADDRESS, namespace: e.TEMPORAL_NAMESPACE, taskQueue: e.TEMPORAL_TASK_QUEUE },
    dataDir: e.DATA_DIR,
    workerMetricsPort: e.WORKER_METRICS_PORT,
    temporalCliPath: e.TEMPORAL_CLI_PATH,
  }),
);
