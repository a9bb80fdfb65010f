import { sustained30m, SUSTAIN_SHARE, type CheckpointObservation } from '../launch/outcome-labels';
import { modelFamily } from '../scoring/knn-label-model';
import { RUNNER_TIERS, tierKey } from '../scoring/runner-model';
import { auc, auprc, baseRate, brier, calibrationCells, expectedCalibrationError, logLoss, thresholdBands, type Scored } from './forward-metrics';
import { vsolLift } from './vsol-lift';
import type { GateState } from './survival-gate';

/**
 * The accuracy page (openapi `Accuracy`), from live forward predictions only: rows of the predictions table
 * whose mint resolved after they were logged. Never leave-one-out on a training index (the anchor service's
 * 95% → 54–65% lesson). Figures are grouped by model family (`knn-v1`, `rug-knn-v1`, …: the algorithm and
 * label definitions); the exact per-refit version of every prediction stays in its row.
 */
export type ForwardPrediction = {
  mint: string;
  ageBucket: number;
  predictedAt: Date;
  gradProb: number;
  gradVersion: string;
  rugProb: number | null;
  rugVersion: string | null;
  runnerOdds: Record<string, number> | null;
  runnerVersion: string | null;
  survivalProb: number | null;
  graduated: boolean;
  /** Null where the outcome was labelled by another rug definition than the current one. */
  rugged: boolean | null;
  /** Peak price within 24 h after the prediction ÷ the price at the prediction. */
  peakMult: number;
  /** Virtual SOL when scored (the logged feature); absent on rows read before it was selected. */
  vSolSol?: number | null;
};

export type CheckpointRow = CheckpointObservation & { mint: string };

export type CurrentVersions = { grad_prob: string | null; rug_prob: string | null; runner_prob: string | null; post_grad_survival: string | null };

export type AccuracyInput = {
  computedAt: Date;
  windowDays: number;
  predictions: readonly ForwardPrediction[];
  checkpoints: readonly CheckpointRow[];
  survivalGate: GateState;
  currentVersions: CurrentVersions;
};

export const CHECKPOINTS_MIN = [5, 15, 30] as const;
export const SUSTAIN_DEFINITION = `a graduate sustains when its DEX price holds at least ${SUSTAIN_SHARE * 100}% of the graduation price at every checkpoint (5, 15, 30 min after graduation) up to and including 30 min; label version v1`;

const AGES = [30, 60] as const;

function groupBy<T>(xs: readonly T[], key: (x: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const x of xs) {
    const k = key(x);
    const g = m.get(k);
    if (g) g.push(x);
    else m.set(k, [x]);
  }
  return m;
}

/** The sustain_30m label per graduated mint from its checkpoints (null: not decidable yet). */
export function sustainLabels(checkpoints: readonly CheckpointRow[]): Map<string, boolean | null> {
  const byMint = groupBy(checkpoints, (c) => c.mint);
  return new Map([...byMint].map(([mint, cs]) => [mint, sustained30m(cs)]));
}

/** The survival gate's evidence: one pair per graduate with a known label, its latest logged survival score. */
export function survivalForward(predictions: readonly ForwardPrediction[], labels: ReadonlyMap<string, boolean | null>): Scored[] {
  const latest = new Map<string, ForwardPrediction>();
  for (const p of predictions) {
    if (p.survivalProb === null || !p.graduated) continue;
    const prev = latest.get(p.mint);
    if (!prev || p.ageBucket > prev.ageBucket) latest.set(p.mint, p);
  }
  const out: Scored[] = [];
  for (const [mint, p] of latest) {
    const label = labels.get(mint);
    if (label !== undefined && label !== null) out.push({ prob: p.survivalProb!, label });
  }
  return out;
}

type Tagged = Scored & { family: string; ageBucket: number; predictedAt: Date; vSolSol: number | null };

/** What every forward figure carries beside AUC and Brier: ranking at the top, the proper score, and the base rate. */
const ranking = (xs: readonly Tagged[]) => ({ auprc: auprc(xs), log_loss: logLoss(xs), base_rate: baseRate(xs) });

function cellsByAge(xs: readonly Tagged[]) {
  return AGES.flatMap((age) =>
    calibrationCells(xs.filter((x) => x.ageBucket === age)).map((c) => ({
      age_bucket: age,
      confidence_band: { lo: c.band.lo, hi: c.band.hi },
      n: c.n,
      mean_predicted: c.meanPredicted,
      historical_actual_rate: c.actualRate,
    })),
  );
}

/** Groups by family, the current family first, then the most recently started. */
function byFamily(xs: readonly Tagged[], current: string | null): [string, Tagged[]][] {
  const groups = groupBy(xs, (x) => x.family);
  const first = (g: Tagged[]) => g.reduce((m, x) => Math.min(m, x.predictedAt.getTime()), Infinity);
  const cur = current === null ? null : modelFamily(current);
  return [...groups].sort(([a, ga], [b, gb]) => (a === cur ? -1 : b === cur ? 1 : first(gb) - first(ga) || (a < b ? -1 : 1)));
}

function forwardAccuracy(family: string, target: string, xs: readonly Tagged[]) {
  return {
    model_version: family,
    target,
    n: xs.length,
    positives: xs.filter((x) => x.label).length,
    brier: brier(xs),
    auc: auc(xs),
    ...ranking(xs),
    expected_calibration_error: expectedCalibrationError(xs),
    calibration: cellsByAge(xs),
  };
}

/**
 * The headline's base rate: of every mint scored in the last 30 days (within the window read), the share that
 * graduated, per mint from its first forward call; the hit rate of calls at ≥ 0.7 is read against it.
 */
export function lastDaysBaseRate(predictions: readonly ForwardPrediction[], now: Date, days = 30): { base_rate: number | null; base_rate_n_mints: number } {
  const from = now.getTime() - days * 86_400_000;
  const mints = new Map<string, boolean>();
  for (const p of predictions) if (p.predictedAt.getTime() >= from) mints.set(p.mint, p.graduated);
  const n = mints.size;
  return { base_rate: n ? [...mints.values()].filter(Boolean).length / n : null, base_rate_n_mints: n };
}

export function buildAccuracyReport(i: AccuracyInput) {
  const tag = (p: ForwardPrediction, family: string, prob: number, label: boolean): Tagged => ({
    prob,
    label,
    family,
    ageBucket: p.ageBucket,
    predictedAt: p.predictedAt,
    vSolSol: p.vSolSol ?? null,
  });
  const grad = i.predictions.map((p) => tag(p, modelFamily(p.gradVersion), p.gradProb, p.graduated));
  const rug = i.predictions.flatMap((p) =>
    p.rugProb === null || p.rugVersion === null || p.rugged === null ? [] : [tag(p, modelFamily(p.rugVersion), p.rugProb, p.rugged)],
  );
  const runner = RUNNER_TIERS.map((t) => ({
    tier: tierKey(t),
    xs: i.predictions.flatMap((p) => {
      const prob = p.runnerOdds?.[tierKey(t)];
      return prob === undefined || p.runnerVersion === null ? [] : [tag(p, modelFamily(p.runnerVersion), prob, p.peakMult >= t)];
    }),
  }));

  // Base rates per mint, from its first forward call (the earliest age bucket it was scored at).
  const firstCall = new Map<string, ForwardPrediction>();
  for (const p of i.predictions) {
    const prev = firstCall.get(p.mint);
    if (!prev || p.ageBucket < prev.ageBucket) firstCall.set(p.mint, p);
  }
  const calls = [...firstCall.values()];
  const share = (f: (p: ForwardPrediction) => boolean) => (calls.length ? calls.filter(f).length / calls.length : null);

  const labels = [...sustainLabels(i.checkpoints).values()].filter((l): l is boolean => l !== null);
  const g = i.survivalGate;
  return {
    computed_at: i.computedAt.toISOString(),
    method: 'forward' as const,
    window_days: i.windowDays,
    current_model_versions: i.currentVersions,
    grad_prob: byFamily(grad, i.currentVersions.grad_prob).map(([family, xs]) => ({
      model_version: family,
      first_predicted_at: new Date(xs.reduce((m, x) => Math.min(m, x.predictedAt.getTime()), Infinity)).toISOString(),
      n: xs.length,
      brier: brier(xs),
      auc: auc(xs),
      ...ranking(xs),
      expected_calibration_error: expectedCalibrationError(xs),
      calibration: cellsByAge(xs),
      threshold_bands: thresholdBands(xs).map((b) => {
        // The no-skill precision of the same predictions (same family, window and ages): a precision means little without it.
        const base = baseRate(xs);
        return {
          min_prob: b.minProb,
          n: b.n,
          graduated: b.positives,
          precision: b.precision,
          base_rate: base,
          lift: b.precision !== null && base ? b.precision / base : null,
        };
      }),
      lift_by_vsol: AGES.map((age) => ({
        age_bucket: age,
        bands: vsolLift(xs.flatMap((x) => (x.ageBucket === age && x.vSolSol !== null ? [{ prob: x.prob, label: x.label, vSolSol: x.vSolSol }] : []))),
      })),
    })),
    rug_prob: byFamily(rug, i.currentVersions.rug_prob).map(([family, xs]) => forwardAccuracy(family, 'rugged', xs)),
    runner_prob: runner.flatMap(({ tier, xs }) => byFamily(xs, i.currentVersions.runner_prob).map(([family, fx]) => forwardAccuracy(family, tier, fx))),
    base_rates: {
      n_mints: calls.length,
      graduation_rate: share((p) => p.graduated),
      runner_2x_from_call: share((p) => p.peakMult >= 2),
      runner_5x_from_call: share((p) => p.peakMult >= 5),
    },
    post_graduation: {
      sustain_rate_30m: labels.length ? labels.filter(Boolean).length / labels.length : null,
      n: labels.length,
      checkpoints_min: [...CHECKPOINTS_MIN],
      definition: SUSTAIN_DEFINITION,
    },
    post_grad_survival: {
      state: g.state,
      reason: g.reason,
      since: g.since.toISOString(),
      gate: {
        min_n: g.evidence.min_n,
        max_calibration_error: g.evidence.max_calibration_error,
        n: g.evidence.n,
        positives: g.evidence.positives,
        calibration_error: g.evidence.calibration_error,
        evaluated_at: g.evaluatedAt.toISOString(),
      },
    },
  };
}
export type AccuracyReport = ReturnType<typeof buildAccuracyReport>;
