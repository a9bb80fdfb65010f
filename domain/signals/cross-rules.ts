import { isPriceStale } from '../market/native-coin';
import { CURVE } from '../launch/launch-events';
import { compositeScore, COMPOSITE_VERSION, inCompositeWindow } from './composite-score';
import type { ThresholdKind, ThresholdReading } from './rolling-threshold';

/**
 * When a composite score becomes a cross (one immutable composite prediction):
 * - the mint is not a mayhem mint (out of scope: never scored), has not crossed before (first cross per mint;
 *   the caller knows, this stays pure), and is inside the composite window;
 * - a threshold exists (≥ 30 samples; the warm-up P95 counts) and the score is positive and reaches it. A zero
 *   score never crosses: while most mints have no smart money the P90 itself is 0, and "≥ 0" would call every
 *   launch hot;
 * - the market cap is strictly above MARKET_CAP_FLOOR_USD (spec: "above 5,000 USD"; exactly 5,000 does not
 *   cross), priced as curve price × total supply × SOL/USD. Without a SOL/USD price, or with one that has missed
 *   two refreshes (isPriceStale, as /api/native_coin_price reports it), nothing crosses: a market cap from a
 *   stale price could admit or refuse a mint by the wrong side of the floor.
 *
 * The reasons are checked in this order, so a price reason is given only for a score that did reach the
 * threshold: counting `native_price_*` reasons counts the crosses the price outage withheld, which is what
 * /api/health and the stats report.
 */
export const CROSS_RULES_VERSION = 1;
export const MARKET_CAP_FLOOR_USD = 5_000;
/** Whole tokens in circulation (fixed by the launchpad). */
export const TOKEN_SUPPLY = CURVE.totalSupplyRaw / 10 ** CURVE.tokenDecimals;

export type NativePrice = { usd: number; fetchedAtMs: number };

export type CrossInput = {
  mayhem: boolean;
  alreadyCrossed: boolean;
  /** Age now; the composite is computed here from it, so score and age at the cross cannot disagree. */
  ageS: number;
  smartMoneyIn: number;
  maxMult: number;
  threshold: ThresholdReading;
  /** Curve price now, SOL per whole token. */
  priceSol: number;
  nativePrice: NativePrice | null;
  /** The SOL/USD cache's refresh interval; a price older than two of them is stale. */
  nativePriceRefreshS: number;
  atMs: number;
};

export type CompositeCross = {
  crossedAtMs: number;
  ageS: number;
  compositeVersion: typeof COMPOSITE_VERSION;
  crossRulesVersion: typeof CROSS_RULES_VERSION;
  score: number;
  smartMoneyIn: number;
  maxMult: number;
  freshness: number;
  threshold: number;
  thresholdQuantile: number;
  thresholdKind: ThresholdKind;
  thresholdSamples: number;
  priceSol: number;
  solUsd: number;
  marketCapUsd: number;
};

export type NoCrossReason =
  | 'mayhem'
  | 'already_crossed'
  | 'outside_window'
  | 'threshold_unavailable'
  | 'zero_score'
  | 'below_threshold'
  | 'native_price_unknown'
  | 'native_price_stale'
  | 'below_market_cap_floor';

export type CrossDecision = { crossed: true; cross: CompositeCross } | { crossed: false; reason: NoCrossReason };

export function marketCapUsd(priceSol: number, solUsd: number): number {
  if (!(priceSol > 0 && Number.isFinite(priceSol))) throw new RangeError(`curve price must be a finite positive number, got ${priceSol}`);
  return priceSol * TOKEN_SUPPLY * solUsd;
}

export function evaluateCross(i: CrossInput): CrossDecision {
  const no = (reason: NoCrossReason): CrossDecision => ({ crossed: false, reason });
  const composite = compositeScore(i);
  if (i.mayhem) return no('mayhem');
  if (i.alreadyCrossed) return no('already_crossed');
  if (!inCompositeWindow(i.ageS)) return no('outside_window');
  const t = i.threshold.value;
  if (t === null) return no('threshold_unavailable');
  const score = composite.score;
  if (!(score > 0)) return no('zero_score');
  if (score < t) return no('below_threshold');
  const p = i.nativePrice;
  if (p === null || !(p.usd > 0 && Number.isFinite(p.usd))) return no('native_price_unknown');
  if (isPriceStale(p.fetchedAtMs, i.atMs, i.nativePriceRefreshS)) return no('native_price_stale');
  const mc = marketCapUsd(i.priceSol, p.usd);
  if (!(mc > MARKET_CAP_FLOOR_USD)) return no('below_market_cap_floor');
  return {
    crossed: true,
    cross: {
      crossedAtMs: i.atMs,
      ageS: Math.max(0, i.ageS),
      compositeVersion: composite.version,
      crossRulesVersion: CROSS_RULES_VERSION,
      score,
      smartMoneyIn: composite.smartMoneyIn,
      maxMult: composite.maxMult,
      freshness: composite.freshness,
      threshold: t,
      thresholdQuantile: i.threshold.quantile,
      thresholdKind: i.threshold.kind,
      thresholdSamples: i.threshold.samples,
      priceSol: i.priceSol,
      solUsd: p.usd,
      marketCapUsd: mc,
    },
  };
}
