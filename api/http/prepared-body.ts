import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Request, Response } from 'express';

const gzipAsync = promisify(gzip);

/**
 * A response body serialised once and, when large enough to be worth it, compressed once; then sent as bytes to every
 * client that asks. `gzippedNow` is the compressed form once it exists (for the listener that answers before Express,
 * which cannot wait), undefined until the first `gzipped()` has finished.
 */
export type PreparedBody = { bytes: Buffer; etag: string; gzipped?: () => Promise<Buffer>; gzippedNow?: () => Buffer | undefined };

/** Bodies below this go out as they are: gzip would save a few hundred bytes and cost a `Vary` for every cache. */
export const GZIP_MIN_BYTES = 8192;

/** `etag` defaults to a hash of the bytes, so a body rebuilt unchanged keeps its tag (and clients their 304s). */
export function prepareBody(bytes: Buffer, o: { etag?: string; gzipMinBytes?: number } = {}): PreparedBody {
  let gz: Promise<Buffer> | undefined;
  let done: Buffer | undefined;
  const etag = o.etag ?? `"${createHash('sha1').update(bytes).digest('base64url').slice(0, 22)}"`;
  if (bytes.length < (o.gzipMinBytes ?? 0)) return { bytes, etag };
  // Compressed on the thread pool, off the event loop, at most once.
  return {
    bytes,
    etag,
    gzipped: () => (gz ??= gzipAsync(bytes, { level: 6 }).then((b) => (done = b))),
    gzippedNow: () => done,
  };
}

/** The JSON a route would have sent with `res.json` (the same bytes), prepared once. */
export const prepareJson = (value: unknown): PreparedBody => prepareBody(Buffer.from(JSON.stringify(value)), { gzipMinBytes: GZIP_MIN_BYTES });

/** Sends prepared JSON bytes, compressed when the body has a gzipped form and the client accepts gzip. */
export async function sendPrepared(req: Request, res: Response, body: PreparedBody): Promise<void> {
  res.type('application/json');
  if (body.gzipped) {
    res.vary('Accept-Encoding');
    if (req.acceptsEncodings('gzip', 'identity') === 'gzip') {
      res.set('Content-Encoding', 'gzip').send(await body.gzipped());
      return;
    }
  }
  res.send(body.bytes);
}

/**
 * A read as its route answers it: the route's own headers (an `ETag`, `Cache-Control`, `Age`, …) and the prepared
 * body. The app sends it with `sendPreparedAnswer`; the listeners before Express write the same one
 * (prepared-write.ts), so both take headers from the one value. With an `ETag` among them, a request holding that
 * version gets a 304.
 */
export type RouteAnswer = { headers: Record<string, string> & { ETag?: string }; body: PreparedBody };

/** A public read's answer: always with its `ETag`. */
export type PreparedAnswer = RouteAnswer & { headers: { ETag: string } };

/** A prepared answer, or a 304 with its headers when the client holds this version. */
export async function sendPreparedAnswer(req: Request, res: Response, a: RouteAnswer): Promise<void> {
  res.set(a.headers);
  if (a.headers.ETag !== undefined && req.headers['if-none-match'] === a.headers.ETag) {
    res.status(304).end();
    return;
  }
  await sendPrepared(req, res, a.body);
}

/** The answer of a prepared read: its body with its `ETag` and `Cache-Control`. */
export const preparedReadAnswer = (body: PreparedBody, cacheControl: string): PreparedAnswer => ({
  headers: { ETag: body.etag, 'Cache-Control': cacheControl },
  body,
});

/** `preparedReadAnswer`, the same answer while the body is the same one (so its response headers are built once). */
export function preparedReadAnswers(cacheControl: string): (body: PreparedBody) => PreparedAnswer {
  let last: PreparedAnswer | undefined;
  return (body) => (last?.body === body ? last : (last = preparedReadAnswer(body, cacheControl)));
}

/** A prepared body with its `ETag` and `Cache-Control`, or a 304 when the client holds this version. */
export const sendPreparedRead = (req: Request, res: Response, body: PreparedBody, cacheControl: string): Promise<void> =>
  sendPreparedAnswer(req, res, preparedReadAnswer(body, cacheControl));
