/** An error with a documented status and body; the one error handler sends it as is. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown> & { error: string; message: string },
    readonly headers: Record<string, string> = {},
  ) {
    super(body.message);
  }
}

export const notFound = (message: string) => new HttpError(404, { error: 'not_found', message });
export const unavailable = (message: string, retryAfterS: number) =>
  new HttpError(503, { error: 'unavailable', message, retry_after_s: retryAfterS }, { 'Retry-After': String(retryAfterS) });
