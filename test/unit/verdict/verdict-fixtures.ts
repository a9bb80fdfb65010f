import type { Tier } from '../../../domain/signals/tier-rules';
import { COMPOSITE_TIERS_V1 } from '../../../domain/verdict/preregistration';
import type { VerdictCross } from '../../../domain/verdict/tier-figures';
import type { BenchmarkHour } from '../../../domain/verdict/verdict-window';

export const P = COMPOSITE_TIERS_V1;
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
export const T0 = P.t0Ms;
export const REG_SHA = 'ab'.repeat(32);

let seq = 0;
/**
 * `n` crosses of one tier, one every `everyMs` from `fromMs`, the first `hits` of them reaching 6× (a hit), the
 * others 1.5×; every other cross graduated.
 */
export function crosses(tier: Tier, n: number, hits: number, fromMs = T0 + HOUR, everyMs = 4 * HOUR, over: Partial<VerdictCross> = {}): VerdictCross[] {
  return Array.from({ length: n }, (_, i) => ({
    mint: `${tier}${seq++}`,
    crossedAtMs: fromMs + i * everyMs,
    tier,
    compositeVersion: P.compositeVersion,
    crossRulesVersion: P.crossRulesVersion,
    tierRulesVersion: P.tierRulesVersion,
    outcome: { labelVersion: 'v1', peakMult24h: i < hits ? 6 : 1.5, didGraduate: i % 2 === 0 },
    ...over,
  }));
}

/** Hourly benchmark from T0 for `hours` hours: `n` scored mints an hour, all resolved, `hits` of them 5×. */
export function benchmark(hours: number, n = 100, hits = 1): BenchmarkHour[] {
  return Array.from({ length: hours }, (_, i) => ({ hourStartMs: T0 + i * HOUR, n, resolved: n, hits }));
}

/** Three tiers of 60 crosses over 10 days, rates 30% / 10% / 3.3%; a 1% benchmark over 20 days. */
export function separated(): { crosses: VerdictCross[]; benchmark: BenchmarkHour[] } {
  return { crosses: [...crosses('ACT', 60, 18), ...crosses('WATCH', 60, 6), ...crosses('SCOUT', 60, 2)], benchmark: benchmark(20 * 24) };
}
