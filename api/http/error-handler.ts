import type { ErrorRequestHandler } from 'express';
import type { Logger } from '../../platform/logger';
import { HttpError } from './http-error';
import { toValidationDetail } from './validation-detail';

type ValidatorError = Error & { status?: number; errors?: { path?: string; message?: string; errorCode?: string }[]; type?: string; headers?: Record<string, string> };

/** The one place HTTP errors become documented bodies. */
export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err: ValidatorError, req, res, _next) => {
    if (err instanceof HttpError) {
      res.status(err.status).set(err.headers).json(err.body);
      return;
    }
    // Malformed JSON from express.json().
    if (err.type === 'entity.parse.failed') {
      res.status(422).json({ detail: [{ loc: ['body'], msg: 'request body is not valid JSON', type: 'json_invalid' }] });
      return;
    }
    if (err.type === 'entity.too.large') {
      res.status(413).json({ error: 'payload_too_large', message: 'request body exceeds the size limit' });
      return;
    }
    const status = err.status;
    if (status === 404) {
      res.status(404).json({ error: 'not_found', message: `no route ${req.method} ${req.path}` });
      return;
    }
    if (status === 405) {
      // RFC 9110: a 405 lists the methods the resource supports.
      if (err.headers?.Allow) res.set('Allow', err.headers.Allow);
      res.status(405).json({ error: 'method_not_allowed', message: `${req.method} is not allowed on ${req.path}` });
      return;
    }
    if (status === 415) {
      // A required body that is missing or not JSON is bad input like any other: the spec's 422.
      const missing = !req.headers['content-type'] || Number(req.headers['content-length'] ?? 0) === 0;
      res.status(422).json({
        detail: [
          missing
            ? { loc: ['body'], msg: 'request body is required', type: 'missing' }
            : { loc: ['body'], msg: 'request body must be application/json', type: 'json_type', input: req.headers['content-type'] },
        ],
      });
      return;
    }
    if (status === 400 && Array.isArray(err.errors)) {
      res.status(422).json({ detail: toValidationDetail(err.errors, req) });
      return;
    }
    // A response that breaks the contract is our bug: log it loudly, answer 500.
    log.error({ err, path: req.path }, 'unhandled error');
    res.status(500).json({ error: 'internal', message: 'internal error' });
  };
}
