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
  res.writeHead(200, first ? withFirst(first, headers) : headers);
  res.end(bytes);
  return true;
}

/**
 * Response headers as Node's flat `[name, value, …]` list: `writeHead` walks it by index, where an object would be
 * walked by `for…in` (and merging two objects per request, as a keyed answer's rate-limit headers and the route's
 * are, costs a dictionary-mode copy each time).
 */
type FlatHeaders = (string | number)[];
type Wire = { identity?: FlatHeaders; gzip?: FlatHeaders };
/** Each answer's response headers, built at its first write: an answer is reused for as long as its body and headers hold. */
const wired = new WeakMap<RouteAnswer, Wire>();

function wireHeaders(a: RouteAnswer, gzip: boolean, length: number): FlatHeaders {
  let w = wired.get(a);
  if (!w) wired.set(a, (w = {}));
  let headers = gzip ? w.gzip : w.identity;
  if (!headers) {
    headers = [];
    for (const name in a.headers) headers.push(name, a.headers[name]!);
    headers.push('Content-Type', 'application/json; charset=utf-8');
    if (a.body.gzipped) headers.push('Vary', 'Accept-Encoding');
    if (gzip) headers.push('Content-Encoding', 'gzip');
    headers.push('Content-Length', length);
    if (gzip) w.gzip = headers;
    else w.identity = headers;
  }
  return headers;
}

/** `first`'s headers, then `headers` (the route's own never repeat a rate-limit header). */
function withFirst(first: Record<string, string>, headers: FlatHeaders): FlatHeaders {
  const out: FlatHeaders = [];
  for (const name in first) out.push(name, first[name]!);
  for (let i = 0; i < headers.length; i++) out.push(headers[i]!);
  return out;
}
