import type { Preregistration } from './preregistration';
import type { TierFigures } from './tier-figures';

/**
 * The criteria of docs/preregistration/composite-tiers-v1.md, section 3, and its outcome branches (section 5).
 * Rate comparisons are made on integer counts by cross-multiplying (k₁·n₂ against k₂·n₁), so two equal rates
 * are equal and a ratio of exactly 1.5 is exactly 1.5; only C4 compares floats (a Wilson bound with B).
 */
export type CriterionId = 'ordered' | 'gap' | 'act_beats_benchmark' | 'act_lower_bound_beats_benchmark';
export type CriterionResult = { id: CriterionId; passed: boolean; figures: Record<string, number | null> };

export type VerdictBranch = 'confirmed' | 'ordered_but_weak' | 'not_separated' | 'insufficient_data';
/** The API's `verdict` for each branch (openapi Verdict.verdict); `pending` is the state before any lock. */
export const API_VERDICT = Object.freeze({
  confirmed: 'supported',
  ordered_but_weak: 'not_supported',
  not_separated: 'not_supported',
  insufficient_data: 'inconclusive',
} as const satisfies Record<VerdictBranch, 'supported' | 'not_supported' | 'inconclusive'>);

export type BenchmarkFigures = { n: number; hits5x: number; rate5x: number | null };

type Rate = { k: number; n: number };
const rateOf = (t: TierFigures): Rate => ({ k: t.hits5x, n: t.n });
/** a > b as rates. */
const above = (a: Rate, b: Rate) => a.k * b.n > b.k * a.n;
/** a ≥ m × b as rates. */
const atLeastTimes = (a: Rate, b: Rate, m: number) => a.k * b.n >= m * b.k * a.n;
const ratio = (a: Rate, b: Rate) => (b.k === 0 ? null : (a.k * b.n) / (b.k * a.n));

/** Requires n > 0 in every tier and the benchmark (the minimums guarantee it). */
export function judgeCriteria(
  t: { ACT: TierFigures; WATCH: TierFigures; SCOUT: TierFigures },
  b: BenchmarkFigures,
  p: Preregistration,
): { branch: VerdictBranch; criteria: CriterionResult[] } {
  const [act, watch, scout] = [rateOf(t.ACT), rateOf(t.WATCH), rateOf(t.SCOUT)];
  if (act.n === 0 || watch.n === 0 || scout.n === 0 || b.n === 0)
    throw new RangeError('criteria need at least one resolved cross in each tier and a benchmark');
  const bench: Rate = { k: b.hits5x, n: b.n };
  const benchRate = b.hits5x / b.n;
  const lower = t.ACT.rate5xLower95!;
  const criteria: CriterionResult[] = [
    {
      id: 'ordered',
      passed: above(act, watch) && above(watch, scout),
      figures: { act: t.ACT.rate5x, watch: t.WATCH.rate5x, scout: t.SCOUT.rate5x },
    },
    {
      id: 'gap',
      passed: atLeastTimes(act, watch, p.minAdjacentRatio) && atLeastTimes(watch, scout, p.minAdjacentRatio) && above(act, watch) && above(watch, scout),
      figures: { act_over_watch: ratio(act, watch), watch_over_scout: ratio(watch, scout), min_ratio: p.minAdjacentRatio },
    },
    { id: 'act_beats_benchmark', passed: above(act, bench), figures: { act: t.ACT.rate5x, benchmark: benchRate } },
    { id: 'act_lower_bound_beats_benchmark', passed: lower > benchRate, figures: { act_lower_95: lower, benchmark: benchRate } },
  ];
  const ordered = criteria[0]!.passed;
  const all = criteria.every((c) => c.passed);
  return { branch: !ordered ? 'not_separated' : all ? 'confirmed' : 'ordered_but_weak', criteria };
}
