import type { Request } from 'express';
import { HttpError } from './http-error';

/**
 * Failures while reading a request body (express.json), as the spec's answers. Content codings are
 * transport: one the API does not decode is 415 with `Accept-Encoding` naming those it does (RFC 9110 §15.5.16);
 * a body that is not valid in its declared coding is bad input, the spec's 422 on `body`.
 */
export const ACCEPTED_ENCODINGS = 'gzip, deflate, br';
/** Bodies are flat objects; anything nested deeper is refused before any code walks it. */
export const MAX_JSON_DEPTH = 32;

type BodyError = Error & { type?: string; status?: number; code?: unknown; errno?: unknown };

const body422 = (msg: string, type: string) => new HttpError(422, { detail: [{ loc: ['body'], msg, type }] });

export function bodyReadError(err: BodyError, req: Request): HttpError | undefined {
  switch (err.type) {
    case 'entity.parse.failed':
      return body422('request body is not valid JSON', 'json_invalid');
    case 'entity.too.deep':
      return body422(`request body is nested deeper than ${MAX_JSON_DEPTH} levels`, 'json_too_deep');
    case 'entity.too.large':
      return new HttpError(413, { error: 'payload_too_large', message: 'request body exceeds the size limit (32 kB, after decompression)' });
    case 'encoding.unsupported':
      return new HttpError(
        415,
        { error: 'unsupported_content_encoding', message: `this API reads request bodies sent as identity, ${ACCEPTED_ENCODINGS} (one coding, not a list)` },
        { 'Accept-Encoding': ACCEPTED_ENCODINGS },
      );
    case 'charset.unsupported':
      return body422('request body must be UTF-8 JSON', 'json_type');
    case 'request.aborted':
    case 'request.size.invalid':
      return body422('request body ended before its declared length', 'json_invalid');
  }
  // A decompression stream's own error (zlib or brotli: Z_DATA_ERROR, Z_BUF_ERROR, ERR__ERROR_FORMAT_…).
  const coding = req.headers['content-encoding'];
  if (coding && coding !== 'identity' && typeof err.code === 'string' && typeof err.errno === 'number') {
    return body422(`request body is not valid ${coding.toLowerCase()} data`, 'content_encoding_invalid');
  }
  return undefined;
}

/**
 * express.json's `verify` hook: measures the nesting depth of the raw JSON (brackets outside strings) in one pass,
 * so a 5,000-deep value never reaches a parser, a validator or a serialiser.
 */
export function refuseDeepJson(_req: unknown, _res: unknown, buf: Buffer): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < buf.length; i++) {
    const c = buf[i];
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped byte
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_JSON_DEPTH) throw Object.assign(new Error('JSON nested too deep'), { type: 'entity.too.deep' });
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
}
