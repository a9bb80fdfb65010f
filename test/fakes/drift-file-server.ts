import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';

/**
 * A local stand-in for Drift's public historical-data bucket over real HTTP: `GET /program/<id>/<key>` serves
 * the stored object's bytes with S3's headers (Content-Length, a quoted ETag, Last-Modified), a missing key
 * answers 404 with S3's `NoSuchKey` XML, and failures can be staged: a 5xx, or a body cut off in transit
 * (Content-Length announced in full, the socket closed part-way).
 */
export const DRIFT_PROGRAM = 'dRiftyHA39MWEi3m9aunc5MzRF1JYuBsbn6VPcn33UH';

type Stored = { bytes: Buffer; cutAt: number | null; stall: boolean };

export async function startDriftFileServer() {
  const objects = new Map<string, Stored>();
  const requests: { key: string; status: number }[] = [];
  let failures: number[] = [];

  const server = http.createServer((req, res) => {
    const prefix = `/program/${DRIFT_PROGRAM}/`;
    const path = decodeURIComponent((req.url ?? '').split('?')[0]!);
    const key = path.startsWith(prefix) ? path.slice(prefix.length) : path;
    const reply = (status: number) => requests.push({ key, status });
    if (req.method !== 'GET') return void (reply(405), res.writeHead(405).end());
    const fail = failures.shift();
    if (fail)
      return void (
        reply(fail),
        res.writeHead(fail, { 'content-type': 'application/xml' }).end(s3Error('InternalError', 'We encountered an internal error. Please try again.', key))
      );
    const o = path.startsWith(prefix) ? objects.get(key) : undefined;
    if (!o)
      return void (reply(404), res.writeHead(404, { 'content-type': 'application/xml' }).end(s3Error('NoSuchKey', 'The specified key does not exist.', key)));
    reply(200);
    res.writeHead(200, {
      'content-type': 'binary/octet-stream',
      'content-length': String(o.bytes.length),
      etag: `"${createHash('md5').update(o.bytes).digest('hex')}"`,
      'last-modified': 'Wed, 08 Jan 2025 06:00:00 GMT',
    });
    if (o.cutAt === null) return void res.end(o.bytes);
    // Cut: the socket closes part-way. Stall: it stays open and sends nothing more.
    res.write(o.bytes.subarray(0, o.cutAt), () => (o.stall ? undefined : res.destroy()));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/program/${DRIFT_PROGRAM}`,
    put(key: string, body: string | Buffer): void {
      objects.set(key, { bytes: Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8'), cutAt: null, stall: false });
    },
    /** Serves `key` with its full Content-Length but closes the connection after `atByte` bytes. */
    cutOffInTransit(key: string, atByte: number, how: 'close' | 'stall' = 'close'): void {
      const o = objects.get(key);
      if (!o) throw new Error(`no object ${key}`);
      o.cutAt = atByte;
      o.stall = how === 'stall';
    },
    /** The next requests answer these statuses, in order. */
    failNext: (...statuses: number[]) => void (failures = statuses),
    requests: () => requests,
    async close(): Promise<void> {
      const closed = new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections();
      await closed;
    },
  };
}

function s3Error(code: string, message: string, key: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><Key>${key}</Key><RequestId>0000000000000000</RequestId></Error>`;
}

export type DriftFileFake = Awaited<ReturnType<typeof startDriftFileServer>>;
