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
