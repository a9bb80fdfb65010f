/**
 * The composite "hot launch" score, version 1:
 *
 *   composite = smart_money_in × max_mult × freshness,   freshness = 1 / (1 + age_s / 600)
 *
 * - smart_money_in: how many smart wallets (wallet index) are among the mint's current top buyers; an integer ≥ 0.
 * - max_mult: the mint's peak curve price since launch ÷ its launch price. A value ≤ 0 (no price seen, or a
 *   feed that reports nothing) counts as 1, as in the public service, so a mint is never scored below its own
 *   smart-money count for lack of a price.
 * - age_s: floored at 1 s, so a mint scored in its creation second (or a slightly skewed clock that makes the age
 *   negative) is treated as one second old rather than as fresher than fresh.
 *
 * A NaN or infinite input is a bug upstream (the public service once received market cap as an object and
 * swallowed it for a day): it throws instead of producing a score.
 *
 * Mints are evaluated only while younger than COMPOSITE_WINDOW_S. 120 s because both the 30 s and 60 s scores
 * exist by then and the public service used the same window. The evaluator reads the last logged score from the
 * predictions, not the live list's grad_prob, which is null outside its short window around each bucket: the
 * tiers of a cross need the 30 s and 60 s scores as logged, whatever the list shows. Past the window freshness
 * has fallen to 5/6 and smart money arriving so late is no longer an early signal; it also bounds the work per
 * refresh to the launches of the last two minutes (≈ 480 mints at 4 launches/s), whatever the traffic.
 */
export const COMPOSITE_VERSION = 1;
export const COMPOSITE_WINDOW_S = 120;
/** The age at which freshness has halved. */
export const FRESHNESS_SCALE_S = 600;
export const MIN_AGE_S = 1;

export type CompositeInput = {
  smartMoneyIn: number;
  maxMult: number;
  ageS: number;
};

export type CompositeScore = {
  version: typeof COMPOSITE_VERSION;
  score: number;
  smartMoneyIn: number;
  /** max_mult as it entered the product (1 when the input was ≤ 0). */
  maxMult: number;
  /** age_s as it entered the freshness term (floored at MIN_AGE_S). */
  ageS: number;
  freshness: number;
};

export function freshness(ageS: number): number {
  if (!Number.isFinite(ageS)) throw new RangeError(`age_s must be a finite number, got ${ageS}`);
  return 1 / (1 + Math.max(MIN_AGE_S, ageS) / FRESHNESS_SCALE_S);
}

export function compositeScore(i: CompositeInput): CompositeScore {
  if (!(Number.isInteger(i.smartMoneyIn) && i.smartMoneyIn >= 0)) throw new RangeError(`smart_money_in must be an integer >= 0, got ${i.smartMoneyIn}`);
  if (!Number.isFinite(i.maxMult)) throw new RangeError(`max_mult must be a finite number, got ${i.maxMult}`);
  const maxMult = i.maxMult <= 0 ? 1 : i.maxMult;
  const f = freshness(i.ageS);
  return {
    version: COMPOSITE_VERSION,
    score: i.smartMoneyIn * maxMult * f,
    smartMoneyIn: i.smartMoneyIn,
    maxMult,
    ageS: Math.max(MIN_AGE_S, i.ageS),
    freshness: f,
  };
}

/**
 * Whether a mint of this age is evaluated at all: younger than COMPOSITE_WINDOW_S. A slightly negative age (a
 * block time ahead of our clock) is inside: the score floors it at MIN_AGE_S.
 */
export function inCompositeWindow(ageS: number): boolean {
  if (Number.isNaN(ageS)) throw new RangeError('age_s is NaN');
  return ageS < COMPOSITE_WINDOW_S;
}
