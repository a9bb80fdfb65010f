import { priceSol } from '../../../domain/launch/launch-events';
import { compositeScore } from '../../../domain/signals/composite-score';
import { evaluateCross, MARKET_CAP_FLOOR_USD, marketCapUsd, TOKEN_SUPPLY, type CrossInput } from '../../../domain/signals/cross-rules';
import type { ThresholdReading } from '../../../domain/signals/rolling-threshold';

const NOW = Date.parse('2026-11-02T12:00:00Z');
const steady: ThresholdReading = { value: 4, quantile: 0.9, kind: 'p90_24h', samples: 5_000, historyS: 100_000, warming: false };
/** 3 smart wallets × 2× at 30 s: 5.714…, above the threshold of 4; 5e-8 SOL × 1e9 × $150 = $7,500. */
const base: CrossInput = {
  mayhem: false,
  alreadyCrossed: false,
  ageS: 30,
  smartMoneyIn: 3,
  maxMult: 2,
  threshold: steady,
  priceSol: 5e-8,
  nativePrice: { usd: 150, fetchedAtMs: NOW - 60_000 },
  nativePriceRefreshS: 300,
  atMs: NOW,
};
const reason = (over: Partial<CrossInput>) => {
  const d = evaluateCross({ ...base, ...over });
  return d.crossed ? 'crossed' : d.reason;
};

describe('composite cross rules', () => {
  it('crosses when the score reaches the threshold above the market-cap floor, and records what it crossed with', () => {
    const d = evaluateCross(base);
    expect(d.crossed).toBe(true);
    if (!d.crossed) return;
    const c = compositeScore({ smartMoneyIn: 3, maxMult: 2, ageS: 30 });
    expect(d.cross).toEqual({
      crossedAtMs: NOW,
      ageS: 30,
      compositeVersion: 1,
      crossRulesVersion: 1,
      score: c.score,
      smartMoneyIn: 3,
      maxMult: 2,
      freshness: c.freshness,
      threshold: 4,
      thresholdQuantile: 0.9,
      thresholdKind: 'p90_24h',
      thresholdSamples: 5_000,
      priceSol: 5e-8,
      solUsd: 150,
      marketCapUsd: 7_500,
    });
    // A score exactly at the threshold crosses.
    expect(reason({ threshold: { ...steady, value: c.score } })).toBe('crossed');
    expect(reason({ threshold: { ...steady, value: c.score * (1 + 1e-12) } })).toBe('below_threshold');
  });

  it('needs a market cap strictly above 5,000 USD', () => {
    expect(TOKEN_SUPPLY).toBe(1e9);
    expect(marketCapUsd(5e-8, 100)).toBe(MARKET_CAP_FLOOR_USD);
    expect(reason({ nativePrice: { usd: 100, fetchedAtMs: NOW } })).toBe('below_market_cap_floor');
    expect(reason({ nativePrice: { usd: 100.000001, fetchedAtMs: NOW } })).toBe('crossed');
    expect(reason({ nativePrice: { usd: 99.99, fetchedAtMs: NOW } })).toBe('below_market_cap_floor');
    // A fresh launch is below the floor at $150/SOL: 30 SOL / 1.073e9 tokens × 1e9 ≈ 28 SOL ≈ $4,194.
    const launch = priceSol(30e9, 1_073e12);
    expect(marketCapUsd(launch, 150)).toBeCloseTo(4_194, 0);
    expect(reason({ priceSol: launch })).toBe('below_market_cap_floor');
    expect(() => evaluateCross({ ...base, priceSol: 0 })).toThrow(RangeError);
  });

  it('makes no cross without a usable SOL/USD price, and says why', () => {
    expect(reason({ nativePrice: null })).toBe('native_price_unknown');
    expect(reason({ nativePrice: { usd: 0, fetchedAtMs: NOW } })).toBe('native_price_unknown');
    expect(reason({ nativePrice: { usd: NaN, fetchedAtMs: NOW } })).toBe('native_price_unknown');
    // Stale after two missed refreshes of 300 s: 600 s old is still fresh, a millisecond more is not.
    expect(reason({ nativePrice: { usd: 150, fetchedAtMs: NOW - 600_000 } })).toBe('crossed');
    expect(reason({ nativePrice: { usd: 150, fetchedAtMs: NOW - 600_001 } })).toBe('native_price_stale');
    // A price reason is reported only for a score that would have crossed.
    expect(reason({ nativePrice: null, smartMoneyIn: 1, maxMult: 1 })).toBe('below_threshold');
  });

  it('makes no cross while there is no threshold, and never on a zero score', () => {
    expect(reason({ threshold: { ...steady, value: null, samples: 29, warming: true, kind: 'p95_warmup', quantile: 0.95 } })).toBe('threshold_unavailable');
    // The warm-up threshold is a threshold.
    expect(reason({ threshold: { ...steady, warming: true, kind: 'p95_warmup', quantile: 0.95 } })).toBe('crossed');
    // Most mints have no smart money, so P90 can be 0: a zero score still does not cross, any positive one does.
    expect(reason({ threshold: { ...steady, value: 0 }, smartMoneyIn: 0 })).toBe('zero_score');
    expect(reason({ threshold: { ...steady, value: 0 }, smartMoneyIn: 1, maxMult: 1 })).toBe('crossed');
  });

  it('crosses once per mint, only inside the window, never for a mayhem mint', () => {
    expect(reason({ alreadyCrossed: true })).toBe('already_crossed');
    expect(reason({ ageS: 119.9 })).toBe('crossed');
    expect(reason({ ageS: 120 })).toBe('outside_window');
    expect(reason({ mayhem: true })).toBe('mayhem');
    // Malformed inputs fail loudly rather than passing as "no cross".
    expect(() => evaluateCross({ ...base, maxMult: { value: 2 } as unknown as number })).toThrow(RangeError);
  });
});
