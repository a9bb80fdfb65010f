import { canonicalBytes, type CanonicalValue } from '../digest/canonical-json';
import { digestToHex, sha256 } from '../digest/ledger-digest';
import { evaluateGateValidation, GATE_VALIDATION, type GateFire, type GateSplit, type GateValidationResult, type PreviousGateRun } from './gate-validation';
import { reachedMultipleAfterGraduation } from './gate-validation-outcome';

/**
 * One hourly gate-validation run as stored rows: the fires it read, exactly as read (snake_case, ISO times), the
 * previous run's decision, and the hash of both. The decision is a pure function of these inputs, so anyone holding
 * a stored run can recompute it (`recomputeGateRun`) and check the hash.
 *
 * A fire is a composite cross (a delivered ACT / WATCH / SCOUT signal) of a mint that graduated after it, read once
 * the 30 minutes after its graduation are over (graduated_at + 30 min ≤ window_end):
 * - entry price: the curve price at the cross;
 * - survival score: the latest `post_grad_survival_prob` logged for the mint at or before the signal's delivery (what
 *   a suppression could have read when the alert went out); none logged then → left out and counted;
 * - prices: the graduation price and every post-graduation DEX checkpoint written by window_end, each placed at its
 *   nominal time (graduated_at + after_s) so a checkpoint fetched a few seconds late still counts at 30 min.
 */
export type GateFireRow = {
  mint: string;
  crossed_at: string;
  entry_price_sol: number;
  graduated_at: string;
  survival_prob: number | null;
  manufactured_pump: boolean | null;
  bundle_detected: boolean;
  graduation_price_sol: number | null;
  checkpoints: { after_s: number; price_sol: number | null }[];
};

export type GateRunInputs = {
  format: 'gate-validation-v1';
  gate: typeof GATE_VALIDATION.gate;
  window_end: string;
  previous: { run_id: number; decision: PreviousGateRun['decision']; hold_target_n: number | null } | null;
  fires: GateFireRow[];
};

export function gateFire(r: GateFireRow): GateFire {
  const graduatedAtMs = Date.parse(r.graduated_at);
  return {
    mint: r.mint,
    survivalProb: r.survival_prob,
    reached2x: reachedMultipleAfterGraduation({
      entryPriceSol: r.entry_price_sol,
      graduatedAtMs,
      graduationPriceSol: r.graduation_price_sol ?? 0,
      checkpoints: r.checkpoints.map((c) => ({ atMs: graduatedAtMs + c.after_s * 1000, priceSol: c.price_sol })),
    }),
    manufacturedPump: r.manufactured_pump,
    bundleDetected: r.bundle_detected,
  };
}

/** Inputs in a canonical order (fires by mint, checkpoints by after_s), so equal rows give equal bytes. */
export function gateRunInputs(windowEnd: Date, previous: GateRunInputs['previous'], fires: readonly GateFireRow[]): GateRunInputs {
  return {
    format: 'gate-validation-v1',
    gate: GATE_VALIDATION.gate,
    window_end: windowEnd.toISOString(),
    previous,
    fires: [...fires]
      .map((f) => ({ ...f, checkpoints: [...f.checkpoints].sort((a, b) => a.after_s - b.after_s) }))
      .sort((a, b) => (a.mint < b.mint ? -1 : a.mint > b.mint ? 1 : 0)),
  };
}

export function gateInputsSha256(i: GateRunInputs): string {
  return digestToHex(sha256(canonicalBytes(i as unknown as CanonicalValue)));
}

export function recomputeGateRun(i: GateRunInputs): GateValidationResult {
  return evaluateGateValidation(i.fires.map(gateFire), i.previous && { decision: i.previous.decision, holdTargetN: i.previous.hold_target_n });
}

/** The earliest cross counted, or null for none: where the run's evidence starts. */
export function gateWindowStart(i: GateRunInputs): string | null {
  return i.fires.reduce<string | null>((min, f) => (min === null || f.crossed_at < min ? f.crossed_at : min), null);
}

const bucket = (b: GateSplit['high']) => ({ n: b.n, hits: b.hits, outcome_rate: b.rate });
const split = (s: GateSplit) => ({ buckets: { flagged: bucket(s.high), unflagged: bucket(s.low) }, ratio: s.ratio, ratio_unbounded: s.ratioUnbounded });

/** The run as `GET /api/gate_validation` serves it (openapi GateValidation), less id and times. */
export function gateResultJson(r: GateValidationResult) {
  return {
    gate: r.criteria.gate,
    outcome: r.criteria.outcome,
    population: 'graduated_composite_crosses',
    decision: r.decision,
    reason: r.reason,
    n: r.n,
    ...split(r.split),
    hold_target_n: r.holdTargetN,
    excluded: { no_survival_score: r.excluded.noSurvivalScore, outcome_unknown: r.excluded.outcomeUnknown },
    criteria: {
      split_at: r.criteria.splitAt,
      min_n: r.criteria.minN,
      fails_below: r.criteria.failsBelow,
      validates_at: r.criteria.validatesAt,
      hold_extra_fires: r.criteria.holdExtraFires,
    },
    stratifications: r.stratifications.map((s) => ({ by: s.by, value: s.value, ...split(s.split) })),
    manufactured_pump_unknown: r.manufacturedPumpUnknown,
  };
}
export type GateResultJson = ReturnType<typeof gateResultJson>;
