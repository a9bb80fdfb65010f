import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Request, Response } from 'express';

const gzipAsync = promisify(gzip);

/** A response body serialised once and, when large enough to be worth it, compressed once; then sent as bytes to every client that asks. */
export type PreparedBody = { bytes: Buffer; etag: string; gzipped?: () => Promise<Buffer> };

/** Bodies below this go out as they are: gzip would save a few hundred bytes and cost a `Vary` for every cache. */
export const GZIP_MIN_BYTES = 8192;

/** `etag` defaults to a hash of the bytes, so a body rebuilt unchanged keeps its tag (and clients their 304s). */
export function prepareBody(bytes: Buffer, o: { etag?: string; gzipMinBytes?: number } = {}): PreparedBody {
  let gz: Promise<Buffer> | undefined;
  const etag = o.etag ?? `"${createHash('sha1').update(bytes).digest('base64url').slice(0, 22)}"`;
  if (bytes.length < (o.gzipMinBytes ?? 0)) return { bytes, etag };
  // Compressed on the thread pool, off the event loop, at most once.
  return { bytes, etag, gzipped: () => (gz ??= gzipAsync(bytes, { level: 6 })) };
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

/** A prepared body with its `ETag` and `Cache-Control`, or a 304 when the client holds this version. */
export async function sendPreparedRead(req: Request, res: Response, body: PreparedBody, cacheControl: string): Promise<void> {
  res.set({ ETag: body.etag, 'Cache-Control': cacheControl });
  if (req.headers['if-none-match'] === body.etag) {
    res.status(304).end();
    return;
  }
  await sendPrepared(req, res, body);
}
