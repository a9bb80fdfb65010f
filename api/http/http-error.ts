import type { ValidationItem } from './validation-detail';

/** An error with a documented status and body (or the spec's 422 `detail` body); the one error handler sends it as is. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: (Record<string, unknown> & { error: string; message: string }) | { detail: ValidationItem[] },
    readonly headers: Record<string, string> = {},
  ) {
    super('error' in body ? body.message : body.detail.map((d) => d.msg).join('; '));
  }
}

export const notFound = (message: string) => new HttpError(404, { error: 'not_found', message });
export const unavailable = (message: string, retryAfterS: number) =>
  new HttpError(503, { error: 'unavailable', message, retry_after_s: retryAfterS }, { 'Retry-After': String(retryAfterS) });
