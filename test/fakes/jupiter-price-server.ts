import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { SHARED_DATA } from '../support/test-env';

/**
 * A local server speaking Jupiter Price API v3 over real HTTP, answering from the recorded reply in
 * ../shared/data. `mode` switches it into the failures the client must survive.
 */
export type JupiterMode = 'ok' | 'down' | 'bad_shape' | 'not_json' | 'rejects';

const captured = JSON.parse(fs.readFileSync(path.join(SHARED_DATA, 'captures', 'jupiter', 'price_v3.json'), 'utf8')).body as Record<string, unknown>;

export async function startJupiterPriceServer() {
  let mode: JupiterMode = 'ok';
  let requests = 0;
  // Prices a test sets for its own mints (paper positions after graduation), answered like the recorded ones.
  const extra: Record<string, unknown> = {};
  const server = http.createServer((req, res) => {
    requests++;
    const u = new URL(req.url ?? '/', 'http://x');
    if (u.pathname !== '/price/v3') return void res.writeHead(404).end();
    if (mode === 'down') return void res.writeHead(503, { 'content-type': 'text/plain' }).end('upstream unavailable');
    if (mode === 'rejects') return void res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"bad ids"}');
    if (mode === 'not_json') return void res.writeHead(200, { 'content-type': 'application/json' }).end('<html>');
    const ids = (u.searchParams.get('ids') ?? '').split(',');
    const known = { ...captured, ...extra };
    const body = Object.fromEntries(ids.filter((id) => id in known).map((id) => [id, known[id]]));
    if (mode === 'bad_shape') for (const k of Object.keys(body)) body[k] = { usdPrice: { value: 1 } };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/price/v3`,
    capturedSolUsd: (captured['So11111111111111111111111111111111111111112'] as { usdPrice: number }).usdPrice,
    setMode: (m: JupiterMode) => void (mode = m),
    setTokenUsd: (mint: string, usdPrice: number) => void (extra[mint] = { usdPrice, blockId: 1, decimals: 6 }),
    requests: () => requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
