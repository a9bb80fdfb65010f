import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { simulatedMetadataAnswer } from '../simulator/simulated-metadata';

/**
 * The embedded default's IPFS gateway (METADATA_SOURCE=simulator): `GET /ipfs/<cid>` answers the simulated launches'
 * metadata as a gateway does (JSON, or a 404 for a CID it does not have, or an HTML page), from the CID alone
 * (ingest/simulator/simulated-metadata.ts). The production metadata client reads it unchanged; only the gateway's
 * address differs. Production configuration never names it.
 */
export async function startSimulatedMetadataServer(o: { port?: number } = {}) {
  let requests = 0;
  const server = http.createServer((req, res) => {
    const cid = /^\/ipfs\/([^/?#]+)/.exec(new URL(req.url ?? '/', 'http://local').pathname)?.[1];
    if (req.method !== 'GET' || cid === undefined) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    requests++;
    const a = simulatedMetadataAnswer(cid);
    if (a.status === 404) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    if ('html' in a) return void res.writeHead(200, { 'content-type': 'text/html' }).end(a.html);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(a.json));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests: () => requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
