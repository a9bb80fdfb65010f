import { createHyperliquidInfoClient, HyperliquidError } from '../../../clients/hyperliquid/hyperliquid-info-client';
import { WeightBudget } from '../../../clients/hyperliquid/weight-budget';
import { recordedAnswer } from '../../fakes/hyperliquid-cassettes';
import { startHyperliquidServer, type HyperliquidFake } from '../../fakes/hyperliquid-server';

let hl: HyperliquidFake;
beforeAll(async () => (hl = await startHyperliquidServer()));
afterAll(() => hl.close());
beforeEach(() => {
  hl.rateLimitNext(0);
  for (const t of ['clearinghouseState', 'allMids', 'userFills']) hl.reshape(t, null);
});

const client = (o: { weightPerMinute?: number; rateLimitBackoffMs?: number; maxRateLimitRetries?: number } = {}) =>
  createHyperliquidInfoClient({ baseUrl: hl.url, weightPerMinute: o.weightPerMinute ?? 1_000_000, timeoutMs: 5000, ...o });
const recorded = (type: string) => recordedAnswer(hl.exchanges, type);

describe('Hyperliquid info client against a local server answering the recorded exchanges', () => {
  it('parses a wallet clearinghouse state: every recorded position with its signed size, entry and liquidation price', async () => {
    const { request, json } = recorded('clearinghouseState');
    const wire = json as { assetPositions: { position: Record<string, unknown> }[]; marginSummary: { accountValue: string } };
    const state = await client().clearinghouseState(String(request.user));
    expect(state.wallet).toBe(String(request.user));
    expect(state.accountValueUsd).toBe(Number(wire.marginSummary.accountValue));
    expect(state.positions).toHaveLength(wire.assetPositions.length);
    for (const [i, { position: p }] of wire.assetPositions.entries()) {
      expect(state.positions[i]).toEqual({
        market: p.coin,
        side: Number(p.szi) > 0 ? 'long' : 'short',
        size: Math.abs(Number(p.szi)),
        entryPx: Number(p.entryPx),
        positionValueUsd: Number(p.positionValue),
        unrealizedPnlUsd: Number(p.unrealizedPnl),
        leverage: (p.leverage as { value: number }).value,
        leverageType: 'cross',
        liquidationPx: p.liquidationPx === null ? null : Number(p.liquidationPx),
        marginUsedUsd: Number(p.marginUsed),
      });
    }
    // The recording holds both kinds: a short with a liquidation price, a long without one.
    expect(state.positions.find((p) => p.market === 'BTC')).toMatchObject({ side: 'short', size: 0.00785, liquidationPx: 173198.69592357 });
    expect(state.positions.find((p) => p.market === 'ETH')).toMatchObject({ side: 'long', liquidationPx: null });
  });

  it('parses fills, mids, candles, funding history, portfolio and markets from the recorded answers', async () => {
    const c = client();
    const fills = await c.userFills(hl.fillsUser);
    expect(fills).toHaveLength((recorded('userFills').json as unknown[]).length);
    expect(fills[0]).toMatchObject({ coin: 'SUI', side: 'A', px: 1.3189, sz: 142.7, dir: 'Close Long', closedPnl: -0.25686, startPosition: 4623.5 });

    const mids = await c.allMids();
    expect(mids.BTC).toBe(30135);
    expect(Object.keys(mids)).toHaveLength(Object.keys(hl.recordedMids).length);

    const candleReq = recorded('candleSnapshot').request.req as { coin: string; interval: string; startTime: number; endTime: number };
    const candles = await c.candleSnapshot(candleReq.coin, candleReq.interval, candleReq.startTime, candleReq.endTime);
    expect(candles.length).toBe((recorded('candleSnapshot').json as unknown[]).length);
    expect(candles[0]).toMatchObject({ s: 'kPEPE', i: '1h', o: 0.001601, c: 0.001604, n: 709 });

    const fundingReq = recorded('fundingHistory').request;
    const funding = await c.fundingHistory(String(fundingReq.coin), Number(fundingReq.startTime));
    expect(funding).toHaveLength(1038);
    expect(funding[0]).toEqual({ coin: 'BTC', fundingRate: -0.00061334, premium: -0.00091334, time: 1683849600048 });

    const portfolio = await c.portfolio(String(recorded('portfolio').request.user));
    expect(portfolio.map(([period]) => period)).toEqual(['day', 'week', 'month', 'allTime', 'perpDay', 'perpWeek', 'perpMonth', 'perpAllTime']);
    expect(portfolio[2]![1].pnlHistory.length).toBeGreaterThan(0);

    const meta = await c.meta();
    const markets = await c.markets();
    expect(markets.map((m) => m.market)).toEqual(meta.universe.map((u) => u.name));
    expect(markets.find((m) => m.market === 'BTC')).toMatchObject({
      markPx: 30135,
      fundingRateHourly: 0.0000125,
      openInterestUsd: 1000 * 30135,
      maxLeverage: 50,
    });
  });

  it('reads fills by time window', async () => {
    const times = hl.fillRows.map((f) => f.time).sort((a, b) => a - b);
    const mid = times[Math.floor(times.length / 2)]!;
    const fills = await client().userFillsByTime(hl.fillsUser, mid);
    expect(fills.length).toBe(times.filter((t) => t >= mid).length);
    expect(fills.every((f) => f.time >= mid)).toBe(true);
  });

  it('charges the per-item weight of a long answer to its budget', async () => {
    const c = client();
    await c.userFills(hl.fillsUser); // 500 fills: 20 + 500/20
    await c.allMids(); // 2
    expect(c.budget.stats().spent).toBe(20 + 25 + 2);
  });

  it('fails loudly, without retrying, when a field it reads changes type', async () => {
    hl.reshape('clearinghouseState', (json) => {
      const s = json as { assetPositions: { position: Record<string, unknown> }[] };
      s.assetPositions[0]!.position.szi = { value: '-0.00785' };
      return s;
    });
    const before = hl.requests().length;
    const err = await client()
      .clearinghouseState(String(recorded('clearinghouseState').request.user))
      .catch((e) => e);
    expect(err).toBeInstanceOf(HyperliquidError);
    expect(err).toMatchObject({ kind: 'shape', retryable: false });
    expect(err.message).toMatch(/assetPositions\.0\.position\.szi/);
    expect(hl.requests().length - before).toBe(1);
  });

  it('rejects a number where the exchange sends a decimal string, and a request it has no answer for', async () => {
    hl.reshape('allMids', (json) => ({ ...(json as object), BTC: 30135 }));
    await expect(client().allMids()).rejects.toMatchObject({ kind: 'shape', retryable: false });
    await expect(client().clearinghouseState('0x00000000000000000000000000000000000000ff')).rejects.toMatchObject({ kind: 'http', retryable: false });
  });

  it('slows down after a 429: it waits the growing backoff, then succeeds', async () => {
    hl.rateLimitNext(2);
    const before = hl.requests().length;
    const c = client({ rateLimitBackoffMs: 150 });
    const started = Date.now();
    await expect(c.allMids()).resolves.toHaveProperty('BTC', 30135);
    const log = hl.requests().slice(before);
    expect(log.map((r) => r.status)).toEqual([429, 429, 200]);
    // 150 ms after the first 429, 300 ms after the second.
    expect(log[1]!.at - log[0]!.at).toBeGreaterThanOrEqual(140);
    expect(log[2]!.at - log[1]!.at).toBeGreaterThanOrEqual(290);
    expect(Date.now() - started).toBeGreaterThanOrEqual(440);
    expect(c.budget.stats().penalties).toBe(2);
  });

  it('honours Retry-After and gives up as rate limited after its retries', async () => {
    hl.rateLimitNext(1, 1);
    const before = hl.requests().length;
    await client({ rateLimitBackoffMs: 10 }).allMids();
    const log = hl.requests().slice(before);
    expect(log[1]!.at - log[0]!.at).toBeGreaterThanOrEqual(990);

    hl.rateLimitNext(10);
    const err = await client({ rateLimitBackoffMs: 10, maxRateLimitRetries: 2 })
      .allMids()
      .catch((e) => e);
    expect(err).toMatchObject({ kind: 'rate_limited', retryable: true });
    hl.rateLimitNext(0);
  });

  it('keeps to its weight budget over every window when callers burst', async () => {
    // 6000/min with a 10% burst: 600 at once, then 90 per second. 40 × metaAndAssetCtxs (20 each) = 800.
    const budget = new WeightBudget({ weightPerMinute: 6000 });
    const c = createHyperliquidInfoClient({ baseUrl: hl.url, weightPerMinute: 6000, budget });
    const before = hl.requests().length;
    const started = Date.now();
    await Promise.all(Array.from({ length: 40 }, () => c.markets()));
    const log = hl.requests().slice(before);
    expect(log).toHaveLength(40);
    // (800 − 600) / 90 per second ≈ 2.2 s at the least.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    // Arrival times are stamped by the server's event loop, which a loaded machine delays unevenly.
    const slackMs = 500;
    for (let i = 0; i < log.length; i++)
      for (let j = i; j < log.length; j++) {
        const spent = (j - i + 1) * 20;
        expect(spent).toBeLessThanOrEqual(600 + (90 * (log[j]!.at - log[i]!.at + slackMs)) / 1000);
      }
  });
});
