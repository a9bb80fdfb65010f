import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';
import type { Logger } from '../platform/logger';

const LEVELS: Record<LogLevel, 'trace' | 'debug' | 'info' | 'warn' | 'error'> = { TRACE: 'trace', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' };

/** Routes the Temporal SDK's own logs into our structured JSON log, at WARN and above. */
export function installTemporalRuntimeLogger(log: Logger): void {
  Runtime.install({
    logger: new DefaultLogger('WARN', (entry) => {
      const { message, level, meta } = entry;
      log[LEVELS[level]]({ temporal: meta }, message);
    }),
  });
}
