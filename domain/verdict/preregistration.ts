import { digestToHex, sha256 } from '../digest/ledger-digest';
import { COMPOSITE_VERSION } from '../signals/composite-score';
import { CROSS_RULES_VERSION } from '../signals/cross-rules';
import { LABEL_VERSION } from '../launch/outcome-labels';
import { Z_ONE_SIDED_95 } from './wilson';

/**
 * The frozen parameters of a pre-registration, as the evaluator reads them. The document
 * (docs/preregistration/<id>.md) is the authority: its section 6 holds the same values as JSON, and a unit test
 * compares the two, so neither can change alone. The document's SHA-256 is computed from its bytes at run time
 * by the integration (preregistrationSha256) and handed to the evaluator; nothing here reads a file.
 */
export type Preregistration = {
  id: string;
  registeredAtMs: number;
  t0Ms: number;
  deadlineMs: number;
  compositeVersion: number;
  crossRulesVersion: number;
  tierRulesVersion: string;
  labelVersion: string;
  outcomeMultiple: number;
  minResolvedPerTier: number;
  minDays: number;
  minAdjacentRatio: number;
  zOneSided95: number;
  benchmarkMinN: number;
  /** Window ends fall on multiples of this (whole UTC hours). */
  windowStepS: number;
};

export const COMPOSITE_TIERS_V1: Preregistration = Object.freeze({
  id: 'composite-tiers-v1',
  registeredAtMs: Date.parse('2026-11-24T00:00:00Z'),
  t0Ms: Date.parse('2026-12-01T00:00:00Z'),
  deadlineMs: Date.parse('2027-03-31T00:00:00Z'),
  compositeVersion: COMPOSITE_VERSION,
  crossRulesVersion: CROSS_RULES_VERSION,
  tierRulesVersion: 'tiers-v1',
  labelVersion: LABEL_VERSION,
  outcomeMultiple: 5,
  minResolvedPerTier: 50,
  minDays: 14,
  minAdjacentRatio: 1.5,
  zOneSided95: Z_ONE_SIDED_95,
  benchmarkMinN: 10_000,
  windowStepS: 3_600,
});

/** The registration hash: SHA-256 of the document's exact bytes, lowercase hex. */
export function preregistrationSha256(documentBytes: Uint8Array): string {
  return digestToHex(sha256(documentBytes));
}

/** The JSON block of section 6, as the document writes it (snake_case, ISO times). */
export type PreregistrationJson = {
  id: string;
  registered_at: string;
  t0: string;
  deadline: string;
  composite_version: number;
  cross_rules_version: number;
  tier_rules_version: string;
  label_version: string;
  outcome_multiple: number;
  min_resolved_per_tier: number;
  min_days: number;
  min_adjacent_ratio: number;
  z_one_sided_95: number;
  benchmark_min_n: number;
  window_step_s: number;
};

export function preregistrationFromJson(j: PreregistrationJson): Preregistration {
  const time = (s: string, what: string) => {
    const ms = Date.parse(s);
    if (!Number.isFinite(ms)) throw new RangeError(`${what} is not a time: ${s}`);
    return ms;
  };
  const p: Preregistration = {
    id: j.id,
    registeredAtMs: time(j.registered_at, 'registered_at'),
    t0Ms: time(j.t0, 't0'),
    deadlineMs: time(j.deadline, 'deadline'),
    compositeVersion: j.composite_version,
    crossRulesVersion: j.cross_rules_version,
    tierRulesVersion: j.tier_rules_version,
    labelVersion: j.label_version,
    outcomeMultiple: j.outcome_multiple,
    minResolvedPerTier: j.min_resolved_per_tier,
    minDays: j.min_days,
    minAdjacentRatio: j.min_adjacent_ratio,
    zOneSided95: j.z_one_sided_95,
    benchmarkMinN: j.benchmark_min_n,
    windowStepS: j.window_step_s,
  };
  if (!(p.registeredAtMs < p.t0Ms && p.t0Ms < p.deadlineMs)) throw new RangeError('a pre-registration is registered before T0, and T0 is before the deadline');
  if (p.t0Ms % (p.windowStepS * 1000) !== 0) throw new RangeError('T0 must fall on a window step');
  return p;
}
