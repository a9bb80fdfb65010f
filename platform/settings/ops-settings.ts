import { z } from 'zod';
import { csv, defineSettings } from './settings';

/** Operations: the watchdog's schedule and disk, daemon heartbeats and which daemons this topology deploys. */
export const opsSettings = defineSettings(
  {
    /** Watchdog schedule. */
    WATCHDOG_INTERVAL_S: z.coerce.number().int().min(10).max(3600).default(60),
    /** Filesystem the watchdog samples. */
    WATCHDOG_DISK_PATH: z.string().default('/'),
    /** Daemon heartbeat period (stale after 4 missed). */
    HEARTBEAT_INTERVAL_S: z.coerce.number().int().min(1).max(300).default(15),
    /** Daemons deployed in this topology (comma-separated); only these are expected to beat. */
    EXPECTED_DAEMONS: z
      .string()
      .default('api,worker')
      .transform(csv)
      .pipe(z.array(z.enum(['api', 'worker', 'ingest', 'scheduler']))),
  },
  (e) => ({
    watchdog: { intervalS: e.WATCHDOG_INTERVAL_S, diskPath: e.WATCHDOG_DISK_PATH },
    heartbeatIntervalS: e.HEARTBEAT_INTERVAL_S,
    expectedDaemons: e.EXPECTED_DAEMONS as readonly string[],
  }),
);
