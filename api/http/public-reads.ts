import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { PreparedRead } from './prepared-read';

/** What the fast path reports for each request it answered (the app's metrics and access log). */
export type AnsweredEarly = (req: IncomingMessage, res: ServerResponse, route: string, ms: number) => void;

/**
 * The public reads whose prepared bodies may be answered before the Express app. Only a plain `GET <path>` (no
 * query string) whose body is in memory and fresh is answered here, with the very bytes and
 * headers the route sends; every other request, and every miss, goes through the app with its validation, keys
 * and error handling. A query string must reach the validator (unknown parameters are bad input, a 422).
 */
export function createPublicReads() {
  const reads = new Map<string, { read: PreparedRead; cacheControl: string }>();
  return {
    /** Called by the route that serves `path` from `read` (its only operation there is a GET without inputs). */
    register(path: string, read: PreparedRead, cacheControl: string): void {
      reads.set(path, { read, cacheControl });
    },
    /** `app` behind a listener that first tries the prepared bodies. */
    before(app: RequestListener, answered: AnsweredEarly): RequestListener {
      return (req, res) => {
        const start = process.hrtime.bigint();
        const hit = req.method === 'GET' ? reads.get(req.url!) : undefined;
        const body = hit?.read.peek();
        // Bodies with a gzipped form vary by Accept-Encoding: the app chooses for them. (These operations take no key:
        // the app ignores one presented to them, and so does this.)
        if (!hit || !body || body.gzipped) {
          app(req, res);
          return;
        }
        const notModified = req.headers['if-none-match'] === body.etag;
        res.writeHead(
          notModified ? 304 : 200,
          notModified
            ? { 'Cache-Control': hit.cacheControl, ETag: body.etag }
            : { 'Cache-Control': hit.cacheControl, ETag: body.etag, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.bytes.length },
        );
        res.end(notModified ? undefined : body.bytes);
        answered(req, res, req.url!, Number(process.hrtime.bigint() - start) / 1e6);
      };
    },
  };
}
export type PublicReads = ReturnType<typeof createPublicReads>;
