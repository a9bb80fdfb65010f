import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local server speaking what launch metadata hosts and IPFS gateways speak: GET a path, get a JSON document.
 * `/ipfs/<cid>` answers as a gateway (a cid starting `slow` never answers, a host slow behind a gateway); the other
 * paths are the failures the client must survive: `/slow` never
 * answers, `/big` streams past any sane size, `/flaky` answers 503 once then the document, `/redirect` sends a
 * 302 to `/ipfs/<cid>`, `/loop` redirects to itself, `/html` is not JSON, `/gone` is a 404.
 */
export async function startMetadataServer() {
  const docs = new Map<string, unknown>();
  const hits = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const n = (hits.get(u.pathname) ?? 0) + 1;
    hits.set(u.pathname, n);
    const json = (doc: unknown) => void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(doc));
    const cid = /^\/ipfs\/(.+)$/.exec(u.pathname)?.[1];
    if (cid?.startsWith('slow')) return; // the client's deadline must end it
    if (cid !== undefined) return docs.has(cid) ? json(docs.get(cid)) : void res.writeHead(404).end();
    switch (u.pathname) {
      case '/slow':
        return; // holds the socket open: the client's deadline must end it
      case '/big':
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(`{"pad":"${'x'.repeat(1_000_000)}"}`);
      case '/flaky':
        return n === 1 ? void res.writeHead(503).end() : json(docs.get('flaky'));
      case '/redirect':
        return void res.writeHead(302, { location: `/ipfs/${u.searchParams.get('cid') ?? ''}` }).end();
      case '/loop':
        return void res.writeHead(302, { location: '/loop' }).end();
      case '/html':
        return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
      default:
        return void res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (s) => (sockets.add(s), s.on('close', () => sockets.delete(s))));
  return {
    url: `http://127.0.0.1:${port}`,
    /** Serves `doc` at `/ipfs/<cid>` (and at `/flaky` for the cid 'flaky'). */
    put: (cid: string, doc: unknown) => void docs.set(cid, doc),
    hits: (path: string) => hits.get(path) ?? 0,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
