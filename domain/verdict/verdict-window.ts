import type { Preregistration } from './preregistration';
import { TIERS, type VerdictCross } from './tier-figures';

/**
 * Where the verdict's window ends (docs/preregistration/composite-tiers-v1.md, section 4): E, the first window
 * step (whole UTC hour) at which every minimum holds on counts alone, or null when none does before the deadline.
 *
 *   E = max( T0 + minDays,
 *            for each tier: the first step boundary after its minResolvedPerTier-th cross,
 *            the first step boundary after the benchmark hour that brings it to benchmarkMinN scored mints )
 *
 * Counts are of crosses made (and mints scored), not of those resolved yet, so E does not move with the
 * resolver's progress; resolution is waited for before the lock, over the fixed window.
 */
export type BenchmarkHour = {
  /** Start of a UTC hour; the benchmark mints are the 60 s predictions whose as_of falls in it. */
  hourStartMs: number;
  /** Non-mayhem mints scored at 60 s in the hour. */
  n: number;
  /** Of those, with their 24 h outcome resolved. */
  resolved: number;
  /** Of the resolved, peak_mult_24h from the 60 s price ≥ the outcome multiple. */
  hits: number;
};

export function checkBenchmarkHours(hours: readonly BenchmarkHour[], p: Preregistration): void {
  const step = p.windowStepS * 1000;
  const seen = new Set<number>();
  for (const h of hours) {
    if (h.hourStartMs % step !== 0) throw new RangeError(`benchmark hour ${h.hourStartMs} does not start on a window step`);
    if (seen.has(h.hourStartMs)) throw new RangeError(`benchmark hour ${new Date(h.hourStartMs).toISOString()} is given twice`);
    seen.add(h.hourStartMs);
    const ok = [h.n, h.resolved, h.hits].every((x) => Number.isInteger(x) && x >= 0) && h.hits <= h.resolved && h.resolved <= h.n;
    if (!ok) throw new RangeError(`benchmark hour ${new Date(h.hourStartMs).toISOString()} needs integers with hits ≤ resolved ≤ n`);
  }
}

/** The first step boundary strictly after `ms`. */
export const stepAfter = (ms: number, stepS: number) => Math.floor(ms / (stepS * 1000)) * stepS * 1000 + stepS * 1000;

/** E for crosses already filtered to the claim's versions and [T0, deadline). */
export function lockPoint(crosses: readonly VerdictCross[], hours: readonly BenchmarkHour[], p: Preregistration): number | null {
  checkBenchmarkHours(hours, p);
  const candidates = [p.t0Ms + p.minDays * 86_400_000];
  for (const tier of TIERS) {
    const times = crosses
      .filter((c) => c.tier === tier)
      .map((c) => c.crossedAtMs)
      .sort((a, b) => a - b);
    if (times.length < p.minResolvedPerTier) return null;
    candidates.push(stepAfter(times[p.minResolvedPerTier - 1]!, p.windowStepS));
  }
  let scored = 0;
  let benchmarkAt: number | null = null;
  for (const h of [...hours].filter((x) => x.hourStartMs >= p.t0Ms && x.hourStartMs < p.deadlineMs).sort((a, b) => a.hourStartMs - b.hourStartMs)) {
    scored += h.n;
    if (scored >= p.benchmarkMinN) {
      benchmarkAt = h.hourStartMs + p.windowStepS * 1000;
      break;
    }
  }
  if (benchmarkAt === null) return null;
  candidates.push(benchmarkAt);
  const e = Math.max(...candidates);
  return e <= p.deadlineMs ? e : null;
}
