import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import type { RouteAnswer } from './prepared-body';

/** Clients send a handful of distinct Accept-Encoding values; a fuzzer sends many, so the memo is bounded. */
const MAX_REMEMBERED_ENCODINGS = 64;

export type GzipChoice = (req: IncomingMessage) => boolean;

/**
 * Whether the app would send gzip: Express's own `req.acceptsEncodings('gzip', 'identity')` (the very negotiation
 * prepared-body.ts runs, q-values and `*` included), remembered per header value.
 */
export function createGzipChoice(): GzipChoice {
  const seen = new Map<string | undefined, boolean>();
  const negotiate = express.request.acceptsEncodings;
  return (req) => {
    const h = req.headers['accept-encoding'];
    let gzip = seen.get(h);
    if (gzip === undefined) {
      gzip = negotiate.call(req as express.Request, 'gzip', 'identity') === 'gzip';
      if (seen.size >= MAX_REMEMBERED_ENCODINGS) seen.clear();
      seen.set(h, gzip);
    }
    return gzip;
  };
}

/**
 * Writes `a` on a plain node response as the app's `sendPreparedAnswer` sends it (its header order: `first` — what
 * the app would have set on `res` before, the rate-limit headers of a keyed call — the route's, then type, vary,
 * encoding, length); false to leave it to the app: a conditional
 * request other than the exact current ETag (Express also answers lists, weak tags and `*` with a 304), or a gzip
 * client before the body's compressed form exists (the app waits for it, this does not).
 */
export function writePreparedAnswer(req: IncomingMessage, res: ServerResponse, a: RouteAnswer, wantsGzip: GzipChoice, first?: Record<string, string>): boolean {
  const inm = req.headers['if-none-match'];
  if (inm !== undefined) {
    if (a.headers.ETag === undefined || inm !== a.headers.ETag) return false;
    res.writeHead(304, first ? { ...first, ...a.headers } : a.headers);
    res.end();
    return true;
  }
  const gzip = a.body.gzipped !== undefined && wantsGzip(req);
  const bytes = gzip ? a.body.gzippedNow?.() : a.body.bytes;
  if (!bytes) return false;
  const headers = wireHeaders(a, gzip, bytes.length);
  res.writeHead(200, first ? { ...first, ...headers } : headers);
  res.end(bytes);
  return true;
}

type Wire = { identity?: Record<string, string | number>; gzip?: Record<string, string | number> };
/** Each answer's response headers, built at its first write: an answer is reused for as long as its body and headers hold. */
const wired = new WeakMap<RouteAnswer, Wire>();

function wireHeaders(a: RouteAnswer, gzip: boolean, length: number): Record<string, string | number> {
  let w = wired.get(a);
  if (!w) wired.set(a, (w = {}));
  let headers = gzip ? w.gzip : w.identity;
  if (!headers) {
    headers = { ...a.headers, 'Content-Type': 'application/json; charset=utf-8' };
    if (a.body.gzipped) headers.Vary = 'Accept-Encoding';
    if (gzip) headers['Content-Encoding'] = 'gzip';
    headers['Content-Length'] = length;
    if (gzip) w.gzip = headers;
    else w.identity = headers;
  }
  return headers;
}
