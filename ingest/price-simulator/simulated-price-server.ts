import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WSOL_MINT } from '../../domain/market/native-coin';
import { simulatedSolPrice } from './simulated-sol-price';

/** The path Jupiter serves its Price API v3 under; PRICE_SOURCE=simulator points the worker here. */
export const SIM_PRICE_PATH = '/price/v3';
const DAY_MS = 86_400_000;
/** Solana's slot time: `blockId` advances like a slot number would. */
const SLOT_MS = 400;

/**
 * The embedded default's price source: Jupiter's Price API v3 wire format on loopback
 * (`GET /price/v3?ids=<mint,…>` → `{ "<mint>": { usdPrice, blockId, decimals, createdAt, liquidity, priceChange24h } }`),
 * answering wrapped SOL with the simulated SOL/USD price and leaving out every other mint, as Jupiter leaves out
 * mints it has no price for. The production client (clients/jupiter-price-client.ts) reads it unchanged; only the
 * address differs, as with the simulated perps exchange. Production configuration never names it.
 */
export async function startSimulatedPriceServer(o: { seed: number; port?: number; now?: () => number }) {
  const now = o.now ?? Date.now;
  const price = simulatedSolPrice(o.seed);
  let requests = 0;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://local');
    if (req.method !== 'GET' || url.pathname !== SIM_PRICE_PATH) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    requests++;
    const ids = (url.searchParams.get('ids') ?? '').split(',').filter(Boolean);
    // Jupiter answers a request without ids with 400 and a JSON reason.
    if (ids.length === 0) return void res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"ids is required"}');
    const t = now();
    const body = Object.fromEntries(
      ids
        .filter((id) => id === WSOL_MINT)
        .map((id) => [
          id,
          {
            createdAt: '2024-06-05T08:55:25.527Z',
            liquidity: 650_000_000,
            usdPrice: price(t),
            blockId: Math.floor(t / SLOT_MS),
            decimals: 9,
            priceChange24h: (price(t) / price(t - DAY_MS) - 1) * 100,
          },
        ]),
    );
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${SIM_PRICE_PATH}`,
    port,
    requests: () => requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
