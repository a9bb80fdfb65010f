import { createJupiterPriceClient, PriceSourceError } from '../../../clients/jupiter-price-client';
import { WSOL_MINT } from '../../../domain/market/native-coin';
import { startJupiterPriceServer } from '../../fakes/jupiter-price-server';

let jup: Awaited<ReturnType<typeof startJupiterPriceServer>>;
beforeAll(async () => (jup = await startJupiterPriceServer()));
afterAll(() => jup.close());

describe('Jupiter Price API v3 client (against a local server answering the recorded reply)', () => {
  const client = () => createJupiterPriceClient(jup.url, { timeoutMs: 1000, now: () => new Date('2026-11-23T00:00:00Z') });

  it('parses the SOL price from the real reply shape', async () => {
    jup.setMode('ok');
    await expect(client().nativeCoinUsd()).resolves.toEqual({
      symbol: 'SOL',
      mint: WSOL_MINT,
      usd: jup.capturedSolUsd,
      source: 'jupiter-price-v3',
      fetchedAt: new Date('2026-11-23T00:00:00Z'),
    });
  });

  it.each([
    ['down', true, /HTTP 503/],
    ['rejects', false, /HTTP 400/],
    ['not_json', true, /invalid JSON/],
    ['bad_shape', false, /unexpected shape/],
  ] as const)('fails loudly when the source is %s (retryable: %s)', async (mode, retryable, msg) => {
    jup.setMode(mode);
    const err = await client()
      .nativeCoinUsd()
      .catch((e) => e);
    expect(err).toBeInstanceOf(PriceSourceError);
    expect(err.retryable).toBe(retryable);
    expect(err.message).toMatch(msg);
  });

  it('treats an unreachable source as retryable', async () => {
    const err = await createJupiterPriceClient('http://127.0.0.1:9/price/v3', { timeoutMs: 500 })
      .nativeCoinUsd()
      .catch((e) => e);
    expect(err).toMatchObject({ retryable: true });
  });
});
