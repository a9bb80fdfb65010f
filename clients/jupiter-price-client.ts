import { z } from 'zod';
import { WSOL_MINT, type PriceQuote } from '../domain/market/native-coin';

/**
 * Client for Jupiter's public Price API v3 (`GET {base}?ids=<mint,…>`), which answers
 * `{ "<mint>": { "usdPrice": number, "blockId": number, "decimals": number, … } }`.
 * The shape is checked at this boundary so a changed API fails loudly instead of storing garbage.
 */
const entry = z.object({ usdPrice: z.number().positive().finite() }).passthrough();
const body = z.record(z.string(), entry.nullable());

export class PriceSourceError extends Error {
  constructor(message: string, readonly retryable: boolean) {
    super(message);
    this.name = 'PriceSourceError';
  }
}

export type PriceClient = { nativeCoinUsd(): Promise<PriceQuote> };

export function createJupiterPriceClient(baseUrl: string, opts: { timeoutMs?: number; now?: () => Date } = {}): PriceClient {
  const timeoutMs = opts.timeoutMs ?? 5000;
  const now = opts.now ?? (() => new Date());
  return {
    async nativeCoinUsd() {
      const url = `${baseUrl}?ids=${WSOL_MINT}`;
      let res: Response;
      try {
        res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' } });
      } catch (e) {
        throw new PriceSourceError(`price source unreachable: ${(e as Error).message}`, true);
      }
      if (!res.ok) {
        // 4xx other than rate limiting means our request is wrong: retrying will not help.
        const retryable = res.status >= 500 || res.status === 429;
        throw new PriceSourceError(`price source answered HTTP ${res.status}`, retryable);
      }
      let json: unknown;
      try {
        json = await res.json();
      } catch {
        throw new PriceSourceError('price source answered invalid JSON', true);
      }
      const parsed = body.safeParse(json);
      if (!parsed.success) throw new PriceSourceError(`price source answered an unexpected shape: ${parsed.error.issues[0]?.message}`, false);
      const sol = parsed.data[WSOL_MINT];
      if (!sol) throw new PriceSourceError('price source has no SOL price', true);
      return { symbol: 'SOL', mint: WSOL_MINT, usd: sol.usdPrice, source: 'jupiter-price-v3', fetchedAt: now() };
    },
  };
}
