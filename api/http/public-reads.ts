import type { IncomingMessage, ServerResponse } from 'node:http';
import { preparedReadAnswers, type PreparedAnswer } from './prepared-body';
import { createGzipChoice, writePreparedAnswer } from './prepared-write';
import type { PreparedRead } from './prepared-read';

/** What the fast path reports for each request it answered (the app's metrics and access log). */
export type AnsweredEarly = (req: IncomingMessage, res: ServerResponse, route: string, ms: number) => void;

/**
 * A listener before the app that may be handed the request's query as the parameter checks passed it (param-refusal.ts):
 * numbers coerced and defaults filled in, as the app's validator leaves `req.query`. Undefined when they did not
 * check it (no query string, an operation without parameters, characters they leave to the app).
 */
export type CheckedListener = (req: IncomingMessage, res: ServerResponse, checkedQuery?: Readonly<Record<string, unknown>>) => void;

/** Told when building or writing a fast-path answer threw (the app then answers the request itself). */
export type FastPathFailed = (err: unknown, route: string) => void;

/** The answer a route would send now, from memory only; undefined when it would have to read (or refuse) first. */
export type PeekAnswer = () => PreparedAnswer | undefined;

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
      const answer = preparedReadAnswers(cacheControl);
      reads.set(path, () => {
        const body = read.peek();
        return body && answer(body);
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
    before(app: CheckedListener, answered: AnsweredEarly, failed: FastPathFailed = () => undefined): CheckedListener {
      return (req, res, checked) => {
        const peek = req.method === 'GET' ? reads.get(req.url!) : undefined;
        if (!peek) {
          app(req, res, checked);
          return;
        }
        const start = process.hrtime.bigint();
        let done: boolean;
        try {
          const a = peek();
          // These operations take no key: the app ignores one presented to them, and so does this.
          done = a !== undefined && writePreparedAnswer(req, res, a, wantsGzip);
        } catch (err) {
          failed(err, req.url!);
          // Nothing sent yet (writeHead is the last step that can throw): the app answers instead.
          if (res.headersSent) res.destroy();
          else app(req, res, checked);
          return;
        }
        if (!done) {
          app(req, res, checked);
          return;
        }
        answered(req, res, req.url!, Number(process.hrtime.bigint() - start) / 1e6);
      };
    },
  };
}
export type PublicReads = ReturnType<typeof createPublicReads>;
