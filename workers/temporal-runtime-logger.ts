import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';
import type { Logger } from '../platform/logger';

const LEVELS: Record<LogLevel, 'trace' | 'debug' | 'info' | 'warn' | 'error'> = { TRACE: 'trace', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' };

/**
 * Routes the Temporal SDK's own logs into our structured JSON log, at WARN and above. The SDK puts the failure of
 * an activity under `meta.error`, where pino would write it as `{}`: it is lifted to `err`, so the line keeps its
 * cause (message, type, whether it will be retried) beside the activity's name and attempt.
 */
export function installTemporalRuntimeLogger(log: Logger): void {
  Runtime.install({
    logger: new DefaultLogger('WARN', (entry) => {
      const { message, level, meta } = entry;
      const { error, ...rest } = (meta ?? {}) as { error?: unknown } & Record<string, unknown>;
      log[LEVELS[level]]({ temporal: rest, ...(error === undefined ? {} : { err: error }) }, message);
    }),
  });
}
