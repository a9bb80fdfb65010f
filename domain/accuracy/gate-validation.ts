/**
 * Forward validation of the post_grad_survival_prob gate (spec section 2, "Gate validation record"): does the
 * score separate graduates that go on to run from those that do not, strongly enough to suppress alerts on it?
 *
 * Population (chosen by the integration, see the report): graduated mints that fired, each with the survival
 * score logged for it before graduation. Two groups: `high` (score ≥ 0.5) and `low` (score < 0.5). Fires
 * without a logged score, or whose outcome is unknown (reached2x null: no DEX price in the window), are left
 * out and counted. The population is cumulative, so n only grows between runs.
 *
 * Metric: the share of each group reaching 2× its entry price within 30 min after graduation
 * (gate-validation-outcome.ts). ratio = rate_high ÷ rate_low.
 *
 * Decision, in this order:
 * - `warming`: n < 15 in either group;
 * - a run after a `hold` whose target has not been reached stays `hold` with the same target: the point of
 *   collecting 30 more fires is not to re-decide on the way;
 * - rate_low = 0: with rate_high > 0 the ratio is unbounded (reported as null, `ratioUnbounded` true) and counts
 *   as ≥ 2, so with n ≥ 15 in each group it `validates`; with rate_high = 0 too nothing separates the groups
 *   (0 ÷ 0, null) and it `fails`;
 * - `fails`: ratio < 1.5 (the gate stays display-only);
 * - `hold`: 1.5 ≤ ratio < 2; the target is the run's n + 30 fires;
 * - `validates`: ratio ≥ 2 (and n ≥ 15 each, already true here); the gate becomes a hard suppression.
 * Boundaries are compared by cross-multiplying integer counts (hits_high × n_low ≥ t × hits_low × n_high), so
 * a ratio of exactly 1.5 or 2 is exactly that, never 1.4999999999999998.
 *
 * Side stratifications by manufactured_pump and bundle_detected: the same split inside each stratum, reported
 * with no decision (a fire whose manufactured_pump is null is in neither of its strata, and counted).
 */
export const GATE_VALIDATION = Object.freeze({
  gate: 'post_grad_survival_prob',
  outcome: 'reached_2x_from_entry_within_30m_after_graduation',
  splitAt: 0.5,
  minN: 15,
  failsBelow: 1.5,
  validatesAt: 2,
  holdExtraFires: 30,
});
export type GateValidationCriteria = typeof GATE_VALIDATION;

export type GateFire = {
  mint: string;
  survivalProb: number | null;
  reached2x: boolean | null;
  manufacturedPump: boolean | null;
  bundleDetected: boolean;
};

export type GateBucketFigures = { n: number; hits: number; rate: number | null };
export type GateSplit = { high: GateBucketFigures; low: GateBucketFigures; ratio: number | null; ratioUnbounded: boolean };
export type GateDecision = 'warming' | 'fails' | 'hold' | 'validates';
export type StratumBy = 'manufactured_pump' | 'bundle_detected';
export type GateStratum = { by: StratumBy; value: boolean; split: GateSplit };

export type GateValidationResult = {
  decision: GateDecision;
  reason: string;
  split: GateSplit;
  /** Fires counted: high.n + low.n. */
  n: number;
  /** While holding: the n at which the decision is taken afresh. */
  holdTargetN: number | null;
  excluded: { noSurvivalScore: number; outcomeUnknown: number };
  stratifications: GateStratum[];
  /** Counted fires whose manufactured_pump is unknown (in neither of its strata). */
  manufacturedPumpUnknown: number;
  criteria: GateValidationCriteria;
};

export type PreviousGateRun = { decision: GateDecision; holdTargetN: number | null };

type Counted = GateFire & { survivalProb: number; reached2x: boolean };

export function gateSplit(fires: readonly Counted[], splitAt: number = GATE_VALIDATION.splitAt): GateSplit {
  const bucket = (xs: readonly Counted[]): GateBucketFigures => {
    const hits = xs.filter((f) => f.reached2x).length;
    return { n: xs.length, hits, rate: xs.length > 0 ? hits / xs.length : null };
  };
  const high = bucket(fires.filter((f) => f.survivalProb >= splitAt));
  const low = bucket(fires.filter((f) => f.survivalProb < splitAt));
  const unbounded = low.n > 0 && low.hits === 0 && high.hits > 0;
  const ratio = high.rate !== null && low.rate !== null && low.rate > 0 ? high.rate / low.rate : null;
  return { high, low, ratio, ratioUnbounded: unbounded };
}

/** rate_high ÷ rate_low ≥ t, exactly, for a split with hits in the low group. */
function ratioAtLeast(s: GateSplit, t: number): boolean {
  return s.high.hits * s.low.n >= t * s.low.hits * s.high.n;
}

export function evaluateGateValidation(
  fires: readonly GateFire[],
  prev: PreviousGateRun | null,
  c: GateValidationCriteria = GATE_VALIDATION,
): GateValidationResult {
  let noScore = 0;
  let unknown = 0;
  const counted: Counted[] = [];
  for (const f of fires) {
    if (f.survivalProb === null) noScore++;
    else if (!(f.survivalProb >= 0 && f.survivalProb <= 1)) throw new RangeError(`survival score of ${f.mint} must be a probability, got ${f.survivalProb}`);
    else if (f.reached2x === null) unknown++;
    else counted.push(f as Counted);
  }
  const split = gateSplit(counted, c.splitAt);
  const n = counted.length;
  const base = {
    split,
    n,
    excluded: { noSurvivalScore: noScore, outcomeUnknown: unknown },
    stratifications: stratify(counted, c.splitAt),
    manufacturedPumpUnknown: counted.filter((f) => f.manufacturedPump === null).length,
    criteria: c,
  };
  const result = (decision: GateDecision, reason: string, holdTargetN: number | null = null): GateValidationResult => ({
    decision,
    reason,
    holdTargetN,
    ...base,
  });

  if (split.high.n < c.minN || split.low.n < c.minN) {
    return result('warming', `needs ${c.minN} fires in each group; has ${split.high.n} with survival ≥ ${c.splitAt} and ${split.low.n} below`);
  }
  if (prev?.decision === 'hold' && prev.holdTargetN !== null && n < prev.holdTargetN) {
    return result('hold', `collecting ${c.holdExtraFires} more fires before deciding again: ${n} of ${prev.holdTargetN}`, prev.holdTargetN);
  }
  if (split.low.hits === 0) {
    return split.ratioUnbounded
      ? result('validates', `no low-survival fire reached 2× against ${split.high.hits} of ${split.high.n} high-survival ones: the ratio is unbounded`)
      : result('fails', 'no fire in either group reached 2×: the score separates nothing');
  }
  if (!ratioAtLeast(split, c.failsBelow)) return result('fails', `ratio ${fmt(split.ratio)} is below ${c.failsBelow}`);
  if (!ratioAtLeast(split, c.validatesAt)) {
    return result(
      'hold',
      `ratio ${fmt(split.ratio)} is in [${c.failsBelow}, ${c.validatesAt}): collecting ${c.holdExtraFires} more fires`,
      n + c.holdExtraFires,
    );
  }
  return result('validates', `ratio ${fmt(split.ratio)} reaches ${c.validatesAt} with at least ${c.minN} fires in each group`);
}

function stratify(fires: readonly Counted[], splitAt: number): GateStratum[] {
  const out: GateStratum[] = [];
  for (const value of [true, false]) {
    out.push({
      by: 'manufactured_pump',
      value,
      split: gateSplit(
        fires.filter((f) => f.manufacturedPump === value),
        splitAt,
      ),
    });
  }
  for (const value of [true, false]) {
    out.push({
      by: 'bundle_detected',
      value,
      split: gateSplit(
        fires.filter((f) => f.bundleDetected === value),
        splitAt,
      ),
    });
  }
  return out;
}

const fmt = (x: number | null) => (x === null ? 'undefined' : x.toFixed(3));

/** The gate's state as an alert path reads it: on while the newest run `validates`. */
export type GateState = { active: boolean; suppressBelow: number };

/**
 * Whether the gate withholds an alert on a delivered cross: it is on and the survival score logged by the signal's
 * delivery (the score the gate's own split reads) is below `suppressBelow`. A cross with no logged score is not
 * withheld: the gate's evidence excludes such fires, so it says nothing about them.
 */
export function gateWithholds(state: GateState, survivalProb: number | null): boolean {
  return state.active && survivalProb !== null && survivalProb < state.suppressBelow;
}
