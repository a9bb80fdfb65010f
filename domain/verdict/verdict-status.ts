import { tierJson, type MissingItem, type VerdictState } from './evaluate-verdict';
import type { Preregistration } from './preregistration';

/**
 * The registration the evaluator runs with: the document's, or with another T0 for tests and demonstrations
 * (`VERDICT_T0_OVERRIDE`); the window start every evaluation records shows which. The deadline stays the document's.
 */
export function registrationWithT0(p: Preregistration, t0: Date | null): Preregistration {
  if (t0 === null) return p;
  const t0Ms = t0.getTime();
  if (t0Ms % (p.windowStepS * 1000) !== 0 || t0Ms >= p.deadlineMs) throw new RangeError('a T0 override falls on a whole hour before the deadline');
  return { ...p, t0Ms };
}

const iso = (ms: number) => new Date(ms).toISOString();

export function missingJson(m: MissingItem): Record<string, string | number> {
  switch (m.kind) {
    case 'not_started':
      return { kind: m.kind, t0: m.t0 };
    case 'tier_crosses':
      return { kind: m.kind, tier: m.tier, have: m.have, need: m.need };
    case 'days':
      return { kind: m.kind, have: Math.round(m.have * 1000) / 1000, need: m.need };
    case 'benchmark':
      return { kind: m.kind, have: m.have, need: m.need };
    case 'resolution':
      return { kind: m.kind, unresolved_crosses: m.unresolvedCrosses, unresolved_benchmark: m.unresolvedBenchmark, lockable_from: m.lockableFrom };
  }
}

/** A tier's figures so far, in the evaluation's own shape. */
export const tierProgressJson = tierJson;

/** What the evaluator stores before the lock: the window so far and what keeps it from locking. */
export function pendingStatus(s: Extract<VerdictState, { state: 'undecidable' }>) {
  return {
    window_start: iso(s.windowStartMs),
    lock_point: s.lockPointMs === null ? null : iso(s.lockPointMs),
    deadline: iso(s.deadlineMs),
    missing: s.missing.map(missingJson),
    tiers: s.progress.map(tierProgressJson),
  };
}
export type PendingStatus = ReturnType<typeof pendingStatus>;
