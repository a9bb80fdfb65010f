import { canonicalBytes, type CanonicalValue } from '../digest/canonical-json';
import { digestToHex, isDigestHex, sha256 } from '../digest/ledger-digest';
import { RESOLUTION_HORIZON_S } from '../signals/resolution';
import type { Tier } from '../signals/tier-rules';
import type { Preregistration } from './preregistration';
import { claimOutcome, TIERS, tierFigures, type TierFigures, type VerdictCross } from './tier-figures';
import { API_VERDICT, judgeCriteria, type BenchmarkFigures, type CriterionResult, type VerdictBranch } from './verdict-criteria';
import { lockPoint, type BenchmarkHour } from './verdict-window';

/**
 * The hourly verdict evaluation (docs/preregistration/composite-tiers-v1.md, section 4), pure: the stored crosses
 * and benchmark hours in, either what is still missing or one locked evaluation out.
 *
 * - The window is [T0, E), E from counts and time only (verdict-window.ts), so the lock point cannot depend on
 *   results or on when this runs. It locks once 24 h (the resolution horizon) have passed since E and every cross
 *   and benchmark mint in the window is resolved: by then every cross made in the window is stored too.
 * - Without an E before the deadline, it locks `insufficient_data` over [T0, deadline) on the same conditions.
 * - The evaluation is canonical JSON (snake_case, ISO times) with no wall-clock in it: its SHA-256 is reproducible
 *   from the stored rows. The caller stores the lock time beside it.
 */
export type MissingItem =
  | { kind: 'not_started'; t0: string }
  | { kind: 'tier_crosses'; tier: Tier; have: number; need: number }
  | { kind: 'days'; have: number; need: number }
  | { kind: 'benchmark'; have: number; need: number }
  | { kind: 'resolution'; unresolvedCrosses: number; unresolvedBenchmark: number; lockableFrom: string };

export type VerdictEvaluationJson = {
  format: 'verdict-v1';
  preregistration_id: string;
  preregistration_sha256: string;
  branch: VerdictBranch;
  verdict: (typeof API_VERDICT)[VerdictBranch];
  window_start: string;
  window_end: string;
  tiers: {
    tier: Tier;
    n: number;
    hits_5x: number;
    rate_5x: number | null;
    rate_5x_lower_95: number | null;
    graduated: number;
    graduation_rate: number | null;
    median_peak_mult_24h: number | null;
  }[];
  benchmark: { n: number; hits_5x: number; rate_5x: number | null };
  criteria: { id: string; passed: boolean; figures: Record<string, number | null> }[];
  /** Crosses in the window made under other versions: not this claim's evidence. */
  other_version_crosses: number;
};

export type VerdictState =
  | { state: 'undecidable'; missing: MissingItem[]; windowStartMs: number; lockPointMs: number | null; deadlineMs: number; progress: TierFigures[] }
  | { state: 'locked'; branch: VerdictBranch; windowStartMs: number; windowEndMs: number; evaluation: VerdictEvaluationJson; evaluationSha256: string };

export type VerdictInput = {
  prereg: Preregistration;
  registrationSha256: string;
  crosses: readonly VerdictCross[];
  benchmark: readonly BenchmarkHour[];
  asOfMs: number;
};

const iso = (ms: number) => new Date(ms).toISOString();

export function evaluateVerdict(i: VerdictInput): VerdictState {
  const p = i.prereg;
  if (!isDigestHex(i.registrationSha256)) throw new RangeError('the registration hash must be 64 lowercase hex digits');
  const seen = new Set<string>();
  for (const c of i.crosses) {
    if (seen.has(c.mint)) throw new RangeError(`mint ${c.mint} crossed twice: crosses are first crosses per mint`);
    seen.add(c.mint);
  }
  const ofClaim = (c: VerdictCross) =>
    c.compositeVersion === p.compositeVersion && c.crossRulesVersion === p.crossRulesVersion && c.tierRulesVersion === p.tierRulesVersion;
  const inWindow = (end: number) => (c: VerdictCross) => c.crossedAtMs >= p.t0Ms && c.crossedAtMs < end;
  const eligible = i.crosses.filter((c) => ofClaim(c) && inWindow(p.deadlineMs)(c));
  const horizonMs = RESOLUTION_HORIZON_S * 1000;

  const E = lockPoint(eligible, i.benchmark, p);
  const endMs = E ?? p.deadlineMs;
  const undecidable = (missing: MissingItem[]): VerdictState => ({
    state: 'undecidable',
    missing,
    windowStartMs: p.t0Ms,
    lockPointMs: E,
    deadlineMs: p.deadlineMs,
    progress: TIERS.map((t) => tierFigures(t, eligible.filter(inWindow(Math.min(endMs, i.asOfMs))), p)),
  });

  if (i.asOfMs < p.t0Ms) return undecidable([{ kind: 'not_started', t0: iso(p.t0Ms) }]);
  if (E === null && i.asOfMs < p.deadlineMs + horizonMs) return undecidable(shortfall(eligible, i.benchmark, p, i.asOfMs));
  // E can be known before it is reached (T0 + 14 days is): until then, say what is still short as of now.
  if (E !== null && i.asOfMs < E) {
    const short = shortfall(eligible, i.benchmark, p, i.asOfMs);
    if (short.length > 0) return undecidable(short);
  }

  const windowCrosses = eligible.filter(inWindow(endMs));
  const windowHours = i.benchmark.filter((h) => h.hourStartMs >= p.t0Ms && h.hourStartMs < endMs);
  const unresolvedCrosses = windowCrosses.filter((c) => claimOutcome(c, p) === null).length;
  const unresolvedBenchmark = windowHours.reduce((s, h) => s + (h.n - h.resolved), 0);
  if (i.asOfMs < endMs + horizonMs || unresolvedCrosses > 0 || unresolvedBenchmark > 0) {
    return undecidable([{ kind: 'resolution', unresolvedCrosses, unresolvedBenchmark, lockableFrom: iso(endMs + horizonMs) }]);
  }

  const tiers = Object.fromEntries(TIERS.map((t) => [t, tierFigures(t, windowCrosses, p)])) as Record<Tier, TierFigures>;
  const hits = windowHours.reduce((s, h) => s + h.hits, 0);
  const n = windowHours.reduce((s, h) => s + h.n, 0);
  const benchmark: BenchmarkFigures = { n, hits5x: hits, rate5x: n > 0 ? hits / n : null };
  const judged: { branch: VerdictBranch; criteria: CriterionResult[] } =
    E === null ? { branch: 'insufficient_data', criteria: [] } : judgeCriteria(tiers, benchmark, p);
  const evaluation: VerdictEvaluationJson = {
    format: 'verdict-v1',
    preregistration_id: p.id,
    preregistration_sha256: i.registrationSha256,
    branch: judged.branch,
    verdict: API_VERDICT[judged.branch],
    window_start: iso(p.t0Ms),
    window_end: iso(endMs),
    tiers: TIERS.map((t) => tierJson(tiers[t])),
    benchmark: { n, hits_5x: hits, rate_5x: benchmark.rate5x },
    criteria: judged.criteria.map((c) => ({ id: c.id, passed: c.passed, figures: c.figures })),
    other_version_crosses: i.crosses.filter((c) => !ofClaim(c) && inWindow(endMs)(c)).length,
  };
  return { state: 'locked', branch: judged.branch, windowStartMs: p.t0Ms, windowEndMs: endMs, evaluation, evaluationSha256: evaluationSha256(evaluation) };
}

export function evaluationSha256(e: VerdictEvaluationJson): string {
  return digestToHex(sha256(canonicalBytes(e as unknown as CanonicalValue)));
}

/** A tier's figures as the evaluation (and the pending status) write them. */
export function tierJson(t: TierFigures): VerdictEvaluationJson['tiers'][number] {
  return {
    tier: t.tier,
    n: t.n,
    hits_5x: t.hits5x,
    rate_5x: t.rate5x,
    rate_5x_lower_95: t.rate5xLower95,
    graduated: t.graduated,
    graduation_rate: t.graduationRate,
    median_peak_mult_24h: t.medianPeakMult24h,
  };
}

/** What keeps E from existing yet, as of now. */
function shortfall(crosses: readonly VerdictCross[], hours: readonly BenchmarkHour[], p: Preregistration, asOfMs: number): MissingItem[] {
  const missing: MissingItem[] = [];
  for (const tier of TIERS) {
    const have = crosses.filter((c) => c.tier === tier && c.crossedAtMs < asOfMs).length;
    if (have < p.minResolvedPerTier) missing.push({ kind: 'tier_crosses', tier, have, need: p.minResolvedPerTier });
  }
  const days = Math.max(0, Math.min(asOfMs, p.deadlineMs) - p.t0Ms) / 86_400_000;
  if (days < p.minDays) missing.push({ kind: 'days', have: days, need: p.minDays });
  const bench = hours.filter((h) => h.hourStartMs >= p.t0Ms && h.hourStartMs < p.deadlineMs).reduce((s, h) => s + h.n, 0);
  if (bench < p.benchmarkMinN) missing.push({ kind: 'benchmark', have: bench, need: p.benchmarkMinN });
  return missing;
}
