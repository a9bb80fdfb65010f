import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs. Secrets never reach a log line: request headers that carry keys are redacted. */
export function createLogger(level: string, name: string, destination?: DestinationStream): Logger {
  const options = {
    name,
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie', '*.api_key', '*.secret', '*.signature_b58'],
      censor: '[redacted]',
    },
  };
  // pino(options, undefined) would not fall back to stdout, so pass a destination only when there is one.
  return destination ? pino(options, destination) : pino(options);
}

/** Causes remembered at once; a flood of distinct causes forgets the oldest rather than growing. */
const MAX_CAUSES = 500;

/**
 * One log line per cause per interval. A dependency that is down fails every request the same way: its story is
 * the first line, then one line per interval saying how many more were suppressed, not a stack per request.
 */
export function createLogThrottle(intervalMs = 10_000, now: () => number = Date.now) {
  const causes = new Map<string, { at: number; suppressed: number }>();
  return {
    /** The number of lines suppressed since the last one for `cause`, when this one should be logged; undefined to drop it. */
    admit(cause: string): number | undefined {
      const t = now();
      const c = causes.get(cause);
      if (c && t - c.at < intervalMs) {
        c.suppressed++;
        return undefined;
      }
      const suppressed = c?.suppressed ?? 0;
      causes.delete(cause);
      if (causes.size >= MAX_CAUSES) causes.delete(causes.keys().next().value!);
      causes.set(cause, { at: t, suppressed: 0 });
      return suppressed;
    },
  };
}
export type LogThrottle = ReturnType<typeof createLogThrottle>;

/** knex's own warnings (one per failed connect, with a stack) as throttled one-line warnings. */
export function throttledDbLog(log: Logger, throttle: LogThrottle = createLogThrottle()) {
  const line = (level: 'warn' | 'error') => (message: string) => {
    const first = message.split('\n', 1)[0]!.slice(0, 300);
    const suppressed = throttle.admit(`db:${first}`);
    if (suppressed !== undefined) log[level]({ suppressed }, `database: ${first}`);
  };
  return { warn: line('warn'), error: line('error') };
}
