import http, { type Server } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { createLiveStore, LIVE_SNAPSHOT } from '../../../db/live/live-store';
import { useApi } from '../../support/api-harness';

/**
 * The public reads answered before Express send what the app sends, byte for byte, identity or gzip as the client's
 * Accept-Encoding asks. Three servers over one app: the API as it listens (fast path, then the app), the Express app
 * alone, and the fast path alone (whatever it would leave to the app answers 599 there, so a hit is known to be one).
 */
const builtAt = new Date();
// A list well past the gzip threshold, in the shape the projector writes (response validation is off, as in production).
const mints = Array.from({ length: 120 }, (_, i) => ({
  mint: `Mint${String(i).padStart(40, '1')}`,
  name: `token ${i}`,
  created_at: new Date(Date.UTC(2026, 10, 27, 12, 0, i)).toISOString(),
  grad_prob: (i % 100) / 100,
}));
const { api } = useApi(async (db) => {
  await createLiveStore(db).writeSnapshot(
    LIVE_SNAPSHOT,
    JSON.stringify({ generated_at: builtAt.toISOString(), refresh_interval_s: 2, delay_s: 0, total_tracked: mints.length, count: mints.length, mints }),
    mints.length,
    builtAt,
  );
  return { env: { API_READ_CACHE_TTL_MS: '600000', VALIDATE_RESPONSES: 'false', LIVE_STALE_AFTER_S: '3600' } };
});

const servers: Server[] = [];
let appOnly = '';
let fastOnly = '';
beforeAll(async () => {
  const listen = async (s: Server) => {
    servers.push(s);
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    return `127.0.0.1:${(s.address() as AddressInfo).port}`;
  };
  appOnly = await listen(http.createServer(api.app));
  const missed: http.RequestListener = (_req, res) => res.writeHead(599).end();
  fastOnly = await listen(http.createServer(api.deps.publicReads.before(missed, () => undefined)));
});
afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

/** The raw bytes of one answer (status line, headers in order, body), with the Date header's value blanked. */
function raw(hostPort: string, path: string, headers: Record<string, string>): Promise<string> {
  const [host, port] = hostPort.split(':');
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), host, () => {
      const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`);
      socket.end(`GET ${path} HTTP/1.1\r\nHost: api.test\r\n${lines.join('')}Connection: close\r\n\r\n`);
    });
    const parts: Buffer[] = [];
    socket.on('data', (b: Buffer) => parts.push(b));
    socket.on('end', () =>
      resolve(
        Buffer.concat(parts)
          .toString('latin1')
          .replace(/\r\nDate: [^\r]*\r\n/, '\r\nDate: -\r\n'),
      ),
    );
    socket.on('error', reject);
  });
}

/**
 * The fast path's answer once it has one in memory: the API (fast path, then app) is asked first, which fills it.
 * The live list is served from memory only within 500 ms of its last version check, which a loaded machine can
 * overrun between the two requests: try for some seconds, not a fixed number of times.
 */
async function fastAnswer(path: string, headers: Record<string, string>): Promise<string> {
  for (const until = Date.now() + 15_000; Date.now() < until;) {
    await raw(api.url.replace('http://', ''), path, headers);
    const a = await raw(fastOnly, path, headers);
    if (!a.startsWith('HTTP/1.1 599')) return a;
  }
  throw new Error(`the fast path never answered ${path} ${JSON.stringify(headers)}`);
}

const ENCODINGS = [
  '',
  'gzip',
  'gzip, deflate, br',
  'br',
  'identity',
  '*',
  'gzip;q=0',
  'gzip;q=0.5, identity',
  'identity;q=0.5, gzip',
  'GZIP',
  'deflate, *;q=0.1',
];

describe('public reads before Express', () => {
  // (/api/accuracy is the same prepared read; it answers 503 here, with no report computed.)
  it.each(['/api/live', '/api/scope', '/api/health'])('%s: the same bytes as the app for every Accept-Encoding', async (path) => {
    for (const ae of ENCODINGS) {
      const headers = ae ? { 'Accept-Encoding': ae } : ({} as Record<string, string>);
      const fast = await fastAnswer(path, headers);
      const app = await raw(appOnly, path, headers);
      // The app's answer may be a newer version (/api/health is rebuilt when its TTL ends): then ask again.
      expect([path, ae, fast]).toEqual([path, ae, fast === app ? app : await raw(appOnly, path, headers)]);
      expect(fast).toMatch(/^HTTP\/1\.1 200 /);
    }
  });

  it('the live list (past the gzip threshold) varies by Accept-Encoding and gzips as negotiated', async () => {
    const plain = await fastAnswer('/api/live', {});
    const gz = await fastAnswer('/api/live', { 'Accept-Encoding': 'gzip, deflate, br' });
    const refused = await fastAnswer('/api/live', { 'Accept-Encoding': 'gzip;q=0' });
    for (const a of [plain, gz, refused]) expect(a).toMatch(/\r\nVary: Accept-Encoding\r\n/);
    expect(gz).toMatch(/\r\nContent-Encoding: gzip\r\n/);
    expect(plain).not.toMatch(/Content-Encoding/);
    expect(refused).not.toMatch(/Content-Encoding/);
    expect(plain).toMatch(/\r\nAge: \d+\r\n/);
  });

  it('a 304 for the current ETag is the same; any other conditional request is left to the app', async () => {
    const plain = await fastAnswer('/api/live', {});
    const etag = /\r\nETag: ([^\r]+)\r\n/.exec(plain)![1]!;
    const fast = await fastAnswer('/api/live', { 'If-None-Match': etag });
    expect(fast).toMatch(/^HTTP\/1\.1 304 /);
    expect(fast).toBe(await raw(appOnly, '/api/live', { 'If-None-Match': etag }));
    expect(await raw(fastOnly, '/api/live', { 'If-None-Match': `W/${etag}, "other"` })).toMatch(/^HTTP\/1\.1 599 /);
    // A query string always goes to the app (its validator refuses unknown parameters).
    expect(await raw(fastOnly, '/api/scope?x=1', {})).toMatch(/^HTTP\/1\.1 599 /);
  });
});
