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
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'PriceSourceError';
  }
}

export type PriceClient = {
  nativeCoinUsd(): Promise<PriceQuote>;
  /** A token's DEX price in SOL (its USD price over SOL's, from one reply); null when the source has no price for it. */
  tokenPriceSol(mint: string): Promise<number | null>;
};

/** `source`: the name stored with each quote (the simulated price in Jupiter's format is `simulated-price`). */
export function createJupiterPriceClient(baseUrl: string, opts: { timeoutMs?: number; now?: () => Date; source?: string } = {}): PriceClient {
  const timeoutMs = opts.timeoutMs ?? 5000;
  const source = opts.source ?? 'jupiter-price-v3';
  const now = opts.now ?? (() => new Date());
  async function fetchPrices(ids: string[]): Promise<Record<string, { usdPrice: number } | null>> {
    const url = `${baseUrl}?ids=${ids.join(',')}`;
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
    return parsed.data;
  }

  return {
    async nativeCoinUsd() {
      const sol = (await fetchPrices([WSOL_MINT]))[WSOL_MINT];
      if (!sol) throw new PriceSourceError('price source has no SOL price', true);
      return { symbol: 'SOL', mint: WSOL_MINT, usd: sol.usdPrice, source, fetchedAt: now() };
    },

    async tokenPriceSol(mint: string) {
      const prices = await fetchPrices([mint, WSOL_MINT]);
      const sol = prices[WSOL_MINT];
      if (!sol) throw new PriceSourceError('price source has no SOL price', true);
      const token = prices[mint];
      return token ? token.usdPrice / sol.usdPrice : null;
    },
  };
}
