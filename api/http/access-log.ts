import type { IncomingMessage, ServerResponse } from 'node:http';
import pino from 'pino';
import type { Logger } from '../../platform/logger';

export type AccessLogSettings = {
  /** Requests slower than this are always logged at info. */
  slowMs: number;
  /** The fraction (0–1) of the other requests logged at info; every request is logged at debug. */
  sample: number;
};

/** What one finished request looks like to the access log. */
export type AccessEntry = { status: number; ms: number };

/**
 * Which level an answered request is logged at, or none. A 503 is a dependency outage the error handler logs once
 * per cause, so it is not an error line here; any other 5xx is.
 */
export function accessLevel(e: AccessEntry, debug: boolean, s: AccessLogSettings, random: () => number = Math.random): 'error' | 'info' | 'debug' | undefined {
  if (e.status >= 500 && e.status !== 503) return 'error';
  if (e.ms >= s.slowMs) return 'info';
  if (debug) return 'debug';
  return s.sample > 0 && random() < s.sample ? 'info' : undefined;
}

/**
 * Called once a request is answered. Nothing is built for a request that is not logged: the
 * line (request with its headers, redacted by the logger, the response, the time) is serialised only when one is
 * written. Keeps pino-http's line shape (`req`, `res`, `responseTime`, "request completed").
 */
export function createAccessLog(log: Logger, s: AccessLogSettings) {
  return (req: IncomingMessage, res: ServerResponse, ms: number, method: string): void => {
    const level = accessLevel({ status: res.statusCode, ms }, log.isLevelEnabled('debug'), s);
    if (!level || !log.isLevelEnabled(level)) return;
    const line = { req: { ...pino.stdSerializers.req(req), method }, res: pino.stdSerializers.res(res), responseTime: Math.round(ms) };
    log[level](line, 'request completed');
  };
}
export type AccessLog = ReturnType<typeof createAccessLog>;
