import { createJupiterPriceClient } from '../../../clients/jupiter-price-client';
import { WSOL_MINT } from '../../../domain/market/native-coin';
import { startSimulatedPriceServer } from '../../../ingest/price-simulator/simulated-price-server';
import { loadConfig } from '../../../platform/config';

/**
 * The embedded default's simulated SOL/USD price, read over real HTTP by the production Jupiter client: the same
 * wire format, a plausible moving price, the same price at the same instant across restarts.
 */
const T0 = Date.parse('2026-11-27T12:00:00Z');
let clock = T0;
let server: Awaited<ReturnType<typeof startSimulatedPriceServer>>;
beforeAll(async () => (server = await startSimulatedPriceServer({ seed: 42, now: () => clock })));
afterAll(() => server.close());

const client = () => createJupiterPriceClient(server.url, { timeoutMs: 2000, source: 'simulated-price', now: () => new Date(clock) });

it('answers SOL/USD in Jupiter v3 format, which the production client reads unchanged', async () => {
  const q = await client().nativeCoinUsd();
  expect(q).toMatchObject({ symbol: 'SOL', mint: WSOL_MINT, source: 'simulated-price' });
  expect(q.usd).toBeGreaterThan(100);
  expect(q.usd).toBeLessThan(230);
  const raw = (await (await fetch(`${server.url}?ids=${WSOL_MINT}`)).json()) as Record<string, Record<string, unknown>>;
  expect(Object.keys(raw[WSOL_MINT]!).sort()).toEqual(['blockId', 'createdAt', 'decimals', 'liquidity', 'priceChange24h', 'usdPrice']);
  expect(raw[WSOL_MINT]).toMatchObject({ decimals: 9, blockId: Math.floor(T0 / 400) });
});

it('moves with the clock, and a restarted server quotes the same price at the same instant', async () => {
  const first = (await client().nativeCoinUsd()).usd;
  clock = T0 + 30 * 60_000;
  const later = (await client().nativeCoinUsd()).usd;
  expect(later).not.toBe(first);
  const again = await startSimulatedPriceServer({ seed: 42, now: () => clock });
  try {
    expect((await createJupiterPriceClient(again.url).nativeCoinUsd()).usd).toBe(later);
  } finally {
    await again.close();
    clock = T0;
  }
});

it('has no price for other mints, as Jupiter has none for a mint it does not know', async () => {
  await expect(client().tokenPriceSol('DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263')).resolves.toBeNull();
  expect((await fetch(`${server.url}`)).status).toBe(400);
});

describe('configuration', () => {
  it('PRICE_SOURCE=simulator points the client at the loopback server and names the source', () => {
    const cfg = loadConfig({ PRICE_SOURCE: 'simulator', PRICE_SIMULATOR_PORT: '18548' });
    expect(cfg.price).toMatchObject({ sourceUrl: 'http://127.0.0.1:18548/price/v3', sourceName: 'simulated-price', simulated: true });
  });

  it('the real price API stays the default', () => {
    expect(loadConfig({}).price).toMatchObject({ sourceUrl: 'https://lite-api.jup.ag/price/v3', sourceName: 'jupiter-price-v3', simulated: false });
  });
});
