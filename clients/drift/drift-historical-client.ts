import { createHash } from 'node:crypto';
import { pipeline, Readable, Transform, type TransformCallback } from 'node:stream';
import { createGunzip, type Gunzip } from 'node:zlib';
import { parse } from 'csv-parse';
import type { DriftTrade } from '../../domain/perps/drift-trade';
import { driftFileKey, type DriftFileRef } from './drift-file-key';
import { DRIFT_REQUIRED_COLUMNS, driftTradeRow } from './drift-trade-row';

export type DriftFileErrorKind = 'http' | 'unreachable' | 'truncated' | 'corrupt';

export class DriftFileError extends Error {
  constructor(
    message: string,
    readonly kind: DriftFileErrorKind,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'DriftFileError';
  }
}

export type DriftFileRead = {
  status: 'read';
  key: string;
  /** SHA-256 (lowercase hex) of the bytes served: the same object read twice has the same checksum. */
  sha256: string;
  bytes: number;
  rows: number;
  gzipped: boolean;
  etag: string | null;
};
export type DriftFileResult = { status: 'missing'; key: string } | DriftFileRead;

export type DriftHistoricalClientOptions = {
  /** The program prefix (drift-file-key.ts); a local server in tests and the embedded default. */
  baseUrl: string;
  /** Limit for the response headers; the body streams for as long as it keeps coming. */
  headersTimeoutMs?: number;
  /** A body that sends nothing for this long is given up as truncated (default 60 s). */
  idleTimeoutMs?: number;
  /** Rows handed to `onBatch` at a time. */
  batchSize?: number;
};

/**
 * Reads one day file of Drift's historical trade records: streams the body (files run to tens of MB), hashes
 * the bytes as they arrive, gunzips when the bytes are gzip (older objects are), parses the CSV with csv-parse
 * and validates every row (drift-trade-row.ts), handing rows over in batches and waiting for each batch to be
 * taken, so memory stays bounded whatever the file's size.
 *
 * A day without trades has no file: 404 is `missing`, an answer, not an error. A body cut off in transit is
 * `truncated` and worth retrying; a file that is malformed as stored (bad gzip, a short row, a value that does
 * not parse, a missing column) is `corrupt` and is not. Rows already handed over before a failure belong to a
 * read that failed: the importer writes a file's rows in one transaction (docs/perps-observatory.md).
 */
export function createDriftHistoricalClient(o: DriftHistoricalClientOptions) {
  const base = o.baseUrl.replace(/\/+$/, '');
  const batchSize = o.batchSize ?? 5_000;

  async function readTradeFile(ref: DriftFileRef, onBatch: (rows: DriftTrade[]) => Promise<void> | void): Promise<DriftFileResult> {
    const key = driftFileKey(ref);
    const url = `${base}/${key}`;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), o.headersTimeoutMs ?? 30_000);
    let res: Response;
    try {
      res = await fetch(url, { signal: abort.signal });
    } catch (e) {
      throw new DriftFileError(`${key}: unreachable (${(e as Error).message})`, 'unreachable', true);
    } finally {
      clearTimeout(timer);
    }
    if (res.status === 404) {
      await res.body?.cancel();
      return { status: 'missing', key };
    }
    if (!res.ok || !res.body) {
      await res.body?.cancel();
      throw new DriftFileError(`${key}: HTTP ${res.status}`, 'http', res.status >= 500 || res.status === 429);
    }

    const hash = createHash('sha256');
    let bytes = 0;
    let gzipped = false;
    const idleMs = o.idleTimeoutMs ?? 60_000;
    // Silence while our own consumer holds a batch is back-pressure, not a stalled server.
    let consuming = false;
    const idle = setTimeout(() => (consuming ? idle.refresh() : abort.abort()), idleMs);
    const tap = new Transform({
      transform(chunk: Buffer, _enc, done: TransformCallback) {
        idle.refresh();
        hash.update(chunk);
        bytes += chunk.length;
        done(null, chunk);
      },
    });
    const body = Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>);
    // pipeline destroys every stage with the first error, so the loop below sees it wherever it happened.
    const csv = pipeline(
      body,
      tap,
      gunzipWhenGzip((gz) => (gzipped = gz)),
      parse({ columns: true, skip_empty_lines: true, bom: true }),
      () => undefined,
    );

    let rows = 0;
    let batch: DriftTrade[] = [];
    let headerChecked = false;
    try {
      for await (const record of csv as AsyncIterable<Record<string, string>>) {
        if (!headerChecked) {
          const missing = DRIFT_REQUIRED_COLUMNS.filter((c) => !(c in record));
          if (missing.length) throw new DriftFileError(`${key}: missing columns ${missing.join(', ')}`, 'corrupt', false);
          headerChecked = true;
        }
        const parsed = driftTradeRow.safeParse(record);
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          throw new DriftFileError(`${key}: row ${rows + 1}: ${issue?.path.join('.')}: ${issue?.message}`, 'corrupt', false);
        }
        rows++;
        batch.push(parsed.data);
        if (batch.length >= batchSize) {
          consuming = true;
          await onBatch(batch);
          consuming = false;
          idle.refresh();
          batch = [];
        }
      }
    } catch (e) {
      abort.abort();
      throw classify(key, e);
    } finally {
      clearTimeout(idle);
    }
    if (batch.length) await onBatch(batch);
    const expected = Number(res.headers.get('content-length') ?? NaN);
    if (Number.isFinite(expected) && expected !== bytes) throw new DriftFileError(`${key}: ${bytes} of ${expected} bytes arrived`, 'truncated', true);
    return { status: 'read', key, sha256: hash.digest('hex'), bytes, rows, gzipped, etag: res.headers.get('etag') };
  }

  return { fileUrl: (ref: DriftFileRef) => `${base}/${driftFileKey(ref)}`, readTradeFile };
}

/** Passes plain bytes through and gunzips gzip (magic 1f 8b), deciding on the first two bytes. */
function gunzipWhenGzip(detected: (gzipped: boolean) => void): Transform {
  let head: Buffer | null = Buffer.alloc(0);
  let gunzip: Gunzip | null = null;
  const out = new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      if (head) {
        head = Buffer.concat([head, chunk]);
        if (head.length < 2) return done();
        chunk = head;
        head = null;
        start(chunk[0] === 0x1f && chunk[1] === 0x8b);
      }
      if (!gunzip) return done(null, chunk);
      // Waiting for the write keeps gunzip's buffer bounded.
      gunzip.write(chunk, () => done());
    },
    flush(done: TransformCallback) {
      if (head) {
        start(false);
        if (head.length) out.push(head);
      }
      if (!gunzip) return done();
      gunzip.once('end', () => done());
      gunzip.end();
    },
  });
  function start(gz: boolean) {
    detected(gz);
    if (!gz) return;
    gunzip = createGunzip();
    gunzip.on('data', (d: Buffer) => out.push(d));
    gunzip.on('error', (e) => out.destroy(e));
  }
  return out;
}

function classify(key: string, e: unknown): DriftFileError {
  if (e instanceof DriftFileError) return e;
  const err = e as Error & { code?: unknown };
  // An abort's DOMException carries a numeric code; only Node's string codes say CSV or zlib.
  const code = typeof err.code === 'string' ? err.code : '';
  if (code.startsWith('CSV_')) return new DriftFileError(`${key}: malformed CSV: ${err.message}`, 'corrupt', false);
  if (code.startsWith('Z_')) return new DriftFileError(`${key}: malformed gzip: ${err.message}`, 'corrupt', false);
  // undici ends a body that stopped short of its Content-Length with "terminated" (cause: other side closed).
  return new DriftFileError(`${key}: body cut off: ${err.message}`, 'truncated', true);
}
