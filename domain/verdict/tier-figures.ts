import type { Tier } from '../signals/tier-rules';
import type { Preregistration } from './preregistration';
import { wilsonLowerBound } from './wilson';

/** A composite cross as the verdict reads it: its versions, its tier, and its outcome once resolved. */
export type VerdictOutcome = { labelVersion: string; peakMult24h: number; didGraduate: boolean };
export type VerdictCross = {
  mint: string;
  crossedAtMs: number;
  tier: Tier;
  compositeVersion: number;
  crossRulesVersion: number;
  tierRulesVersion: string;
  outcome: VerdictOutcome | null;
};

export const TIERS: readonly Tier[] = Object.freeze(['ACT', 'WATCH', 'SCOUT']);

export type TierFigures = {
  tier: Tier;
  n: number;
  hits5x: number;
  rate5x: number | null;
  /** One-sided 95% Wilson lower bound of rate5x. */
  rate5xLower95: number | null;
  graduated: number;
  graduationRate: number | null;
  medianPeakMult24h: number | null;
};

/** The resolved outcome the claim reads, or null (unresolved, or labelled under another definition). */
export function claimOutcome(c: VerdictCross, p: Preregistration): VerdictOutcome | null {
  return c.outcome && c.outcome.labelVersion === p.labelVersion ? c.outcome : null;
}

export function tierFigures(tier: Tier, crosses: readonly VerdictCross[], p: Preregistration): TierFigures {
  const outcomes = crosses
    .filter((c) => c.tier === tier)
    .map((c) => claimOutcome(c, p))
    .filter((o): o is VerdictOutcome => o !== null);
  const n = outcomes.length;
  const hits = outcomes.filter((o) => o.peakMult24h >= p.outcomeMultiple).length;
  const graduated = outcomes.filter((o) => o.didGraduate).length;
  return {
    tier,
    n,
    hits5x: hits,
    rate5x: n > 0 ? hits / n : null,
    rate5xLower95: wilsonLowerBound(hits, n, p.zOneSided95),
    graduated,
    graduationRate: n > 0 ? graduated / n : null,
    medianPeakMult24h: median(outcomes.map((o) => o.peakMult24h)),
  };
}

/** Median; the mean of the middle two for an even count; null for none. */
export function median(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
