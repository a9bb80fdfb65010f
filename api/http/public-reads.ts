import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import express from 'express';
import { preparedReadAnswer, type PreparedAnswer } from './prepared-body';
import type { PreparedRead } from './prepared-read';

/** What the fast path reports for each request it answered (the app's metrics and access log). */
export type AnsweredEarly = (req: IncomingMessage, res: ServerResponse, route: string, ms: number) => void;

/** Told when building or writing a fast-path answer threw (the app then answers the request itself). */
export type FastPathFailed = (err: unknown, route: string) => void;

/** The answer a route would send now, from memory only; undefined when it would have to read (or refuse) first. */
export type PeekAnswer = () => PreparedAnswer | undefined;

/** Clients send a handful of distinct Accept-Encoding values; a fuzzer sends many, so the memo is bounded. */
const MAX_REMEMBERED_ENCODINGS = 64;

/**
 * Whether the app would send gzip: Express's own `req.acceptsEncodings('gzip', 'identity')` (the very negotiation
 * prepared-body.ts runs, q-values and `*` included), remembered per header value.
 */
function createGzipChoice(): (req: IncomingMessage) => boolean {
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
 * The public reads whose prepared answers may be sent before the Express app. Only a plain `GET <path>` (no query
 * string) whose answer is in memory and fresh is answered here, with the very bytes and headers the route sends
 * (prepared-body.ts writes both from one `PreparedAnswer`), identity or gzip as Accept-Encoding asks. Every other
 * request goes through the app with its validation and error handling: a query string (unknown parameters are a
 * 422), a conditional request other than the exact current ETag (Express also answers lists and weak tags with a
 * 304), and a gzip client before the body's compressed form exists (the app waits for it, this does not).
 */
export function createPublicReads() {
  const reads = new Map<string, PeekAnswer>();
  const wantsGzip = createGzipChoice();
  return {
    /** Called by the route that serves `path` from `read` (its only operation there is a GET without inputs). */
    register(path: string, read: PreparedRead, cacheControl: string): void {
      reads.set(path, () => {
        const body = read.peek();
        return body && preparedReadAnswer(body, cacheControl);
      });
    },
    /** Called by a route whose answer carries more than a prepared read's headers (the live list's `Age`, its stale form). */
    registerAnswer(path: string, peek: PeekAnswer): void {
      reads.set(path, peek);
    },
    /**
     * `app` behind a listener that first tries the prepared answers. A throw while building or writing one (a
     * snapshot that cannot be read, a header Node refuses) is reported to `failed` and the request goes to the app,
     * which answers it as it would any other (its route, its error handler): a fast path never costs an answer.
     */
    before(app: RequestListener, answered: AnsweredEarly, failed: FastPathFailed = () => undefined): RequestListener {
      return (req, res) => {
        const start = process.hrtime.bigint();
        let done: boolean;
        try {
          const a = req.method === 'GET' ? reads.get(req.url!)?.() : undefined;
          // These operations take no key: the app ignores one presented to them, and so does this.
          done = a !== undefined && writeAnswer(req, res, a, wantsGzip);
        } catch (err) {
          failed(err, req.url!);
          // Nothing sent yet (writeHead is the last step that can throw): the app answers instead.
          if (res.headersSent) res.destroy();
          else app(req, res);
          return;
        }
        if (!done) {
          app(req, res);
          return;
        }
        answered(req, res, req.url!, Number(process.hrtime.bigint() - start) / 1e6);
      };
    },
  };
}
export type PublicReads = ReturnType<typeof createPublicReads>;

/** Writes `a` as the app would (its header order: the route's, then type, vary, encoding, length); false to leave it to the app. */
function writeAnswer(req: IncomingMessage, res: ServerResponse, a: PreparedAnswer, wantsGzip: (req: IncomingMessage) => boolean): boolean {
  const inm = req.headers['if-none-match'];
  if (inm !== undefined) {
    if (inm !== a.headers.ETag) return false;
    res.writeHead(304, a.headers);
    res.end();
    return true;
  }
  const { body } = a;
  let bytes = body.bytes;
  const headers: Record<string, string | number> = { ...a.headers, 'Content-Type': 'application/json; charset=utf-8' };
  if (body.gzipped) {
    headers.Vary = 'Accept-Encoding';
    if (wantsGzip(req)) {
      const gz = body.gzippedNow?.();
      if (!gz) return false;
      headers['Content-Encoding'] = 'gzip';
      bytes = gz;
    }
  }
  headers['Content-Length'] = bytes.length;
  res.writeHead(200, headers);
  res.end(bytes);
  return true;
}
