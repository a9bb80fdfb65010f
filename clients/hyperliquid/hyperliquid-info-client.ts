import type { z } from 'zod';
import { baseWeight, itemsWeight } from './request-weights';
import { WeightBudget } from './weight-budget';
import {
  allMidsWire,
  candlesWire,
  clearinghouseStateWire,
  fillsWire,
  fundingHistoryWire,
  metaAndAssetCtxsWire,
  metaWire,
  portfolioWire,
} from './hyperliquid-wire';
import { toClearinghouseState, toMarkets, type HlClearinghouseState, type HlMarket } from './hyperliquid-mapping';

export type HyperliquidErrorKind = 'rate_limited' | 'http' | 'shape' | 'unreachable';

export class HyperliquidError extends Error {
  constructor(
    message: string,
    readonly kind: HyperliquidErrorKind,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'HyperliquidError';
  }
}

export type HyperliquidInfoClientOptions = {
  /** e.g. `https://api.hyperliquid.xyz` (the client posts to `${baseUrl}/info`). */
  baseUrl: string;
  /** Weight this process may spend per minute (Hyperliquid allows 1200 per IP). */
  weightPerMinute: number;
  timeoutMs?: number;
  /** Attempts after a 429 before giving up (each waits longer; default 4). */
  maxRateLimitRetries?: number;
  /** First wait after a 429 when the answer names none (Retry-After); doubles per attempt (default 2000 ms). */
  rateLimitBackoffMs?: number;
  budget?: WeightBudget;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
};

export type HlFill = z.infer<typeof fillsWire>[number];
export type HlCandle = z.infer<typeof candlesWire>[number];
export type HlFunding = z.infer<typeof fundingHistoryWire>[number];
export type HlPortfolio = z.infer<typeof portfolioWire>;

export type HyperliquidInfoClient = ReturnType<typeof createHyperliquidInfoClient>;

/**
 * A typed client for Hyperliquid's public, keyless `POST /info`. Every request spends its documented weight
 * from a token bucket first (request-weights.ts); a 429 empties the bucket, waits (Retry-After, else
 * exponential) and tries again; every answer's shape is checked (hyperliquid-wire.ts) and a changed shape is a
 * non-retryable error. Why not an SDK: `@nktkas/hyperliquid` needs Node ≥ 22.12 (we run 20), and `hyperliquid`
 * brings ethers, axios and dotenv for trading we never do; neither has a weight budget, which is the part that
 * matters here.
 */
export function createHyperliquidInfoClient(o: HyperliquidInfoClientOptions) {
  const url = `${o.baseUrl.replace(/\/+$/, '')}/info`;
  const timeoutMs = o.timeoutMs ?? 10_000;
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const budget = o.budget ?? new WeightBudget({ weightPerMinute: o.weightPerMinute, now: o.now, sleep });
  const maxRetries = o.maxRateLimitRetries ?? 4;
  const backoffMs = o.rateLimitBackoffMs ?? 2_000;

  async function post<S extends z.ZodType>(body: { type: string } & Record<string, unknown>, schema: S): Promise<z.output<S>> {
    for (let attempt = 0; ; attempt++) {
      await budget.acquire(baseWeight(body.type));
      let res: Response;
      try {
        res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (e) {
        throw new HyperliquidError(`hyperliquid ${body.type}: unreachable (${(e as Error).message})`, 'unreachable', true);
      }
      if (res.status === 429) {
        await res.body?.cancel();
        const wait = retryAfterMs(res.headers.get('retry-after')) ?? backoffMs * 2 ** attempt;
        budget.penalize(wait);
        if (attempt >= maxRetries) throw new HyperliquidError(`hyperliquid ${body.type}: rate limited ${attempt + 1} times`, 'rate_limited', true);
        continue;
      }
      const text = await res.text();
      if (!res.ok) {
        // A 4xx other than 429 means the request itself is wrong (unknown user format, bad coin): no retry helps.
        throw new HyperliquidError(`hyperliquid ${body.type}: HTTP ${res.status} ${text.slice(0, 200)}`, 'http', res.status >= 500);
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new HyperliquidError(`hyperliquid ${body.type}: answer is not JSON`, 'shape', false);
      }
      if (Array.isArray(json)) budget.charge(itemsWeight(body.type, json.length));
      const parsed = schema.safeParse(json);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new HyperliquidError(`hyperliquid ${body.type}: unexpected shape at ${issue?.path.join('.') || '(root)'}: ${issue?.message}`, 'shape', false);
      }
      return parsed.data;
    }
  }

  return {
    budget,
    meta: () => post({ type: 'meta' }, metaWire),
    /** Every perpetual market with funding, open interest, 24 h notional volume, mark and oracle prices. */
    async markets(): Promise<HlMarket[]> {
      return toMarkets(await post({ type: 'metaAndAssetCtxs' }, metaAndAssetCtxsWire));
    },
    async clearinghouseState(user: string): Promise<HlClearinghouseState> {
      return toClearinghouseState(user, await post({ type: 'clearinghouseState', user: user.toLowerCase() }, clearinghouseStateWire));
    },
    /** The newest fills of a wallet (Hyperliquid returns at most 2000). */
    userFills: (user: string): Promise<HlFill[]> => post({ type: 'userFills', user: user.toLowerCase() }, fillsWire),
    userFillsByTime: (user: string, startTime: number, endTime?: number): Promise<HlFill[]> =>
      post({ type: 'userFillsByTime', user: user.toLowerCase(), startTime, ...(endTime === undefined ? {} : { endTime }) }, fillsWire),
    allMids: (): Promise<Record<string, number>> => post({ type: 'allMids' }, allMidsWire),
    candleSnapshot: (coin: string, interval: string, startTime: number, endTime: number): Promise<HlCandle[]> =>
      post({ type: 'candleSnapshot', req: { coin, interval, startTime, endTime } }, candlesWire),
    fundingHistory: (coin: string, startTime: number, endTime?: number): Promise<HlFunding[]> =>
      post({ type: 'fundingHistory', coin, startTime, ...(endTime === undefined ? {} : { endTime }) }, fundingHistoryWire),
    portfolio: (user: string): Promise<HlPortfolio> => post({ type: 'portfolio', user: user.toLowerCase() }, portfolioWire),
  };
}

function retryAfterMs(header: string | null): number | null {
  if (!header) return null;
  const s = Number(header);
  if (Number.isFinite(s) && s >= 0) return s * 1000;
  const at = Date.parse(header);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : null;
}
