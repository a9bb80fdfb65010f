import { modelFamily } from '../scoring/knn-label-model';
import { RUNNER_GRID_AGES_S } from '../scoring/runner-grid';
import { RUNNER_TIERS, tierKey, type RunnerOdds } from '../scoring/runner-model';
import { auc, brier, expectedCalibrationError, type Scored } from './forward-metrics';

/** One published from-now odds with its outcome (db/mint/runner-now-store.ts `ResolvedRunnerOdds`). */
export type ResolvedFromNow = { gridAgeS: number; odds: RunnerOdds; modelVersion: string; peakMult: number };

export const RUNNER_FROM_NOW_DEFINITION =
  'from the price at the time the odds were published: the first from-now odds the live list showed for a mint in each age band, against its peak price after that moment within 24 h ÷ its price then; label version v1';

/**
 * The forward accuracy of the from-now runner odds per age band (the grid age that served them) and tier, per model
 * family: how odds "from the current price" fared from the price they were published at, never from launch or from
 * an earlier score. A band with no resolved row is left out.
 */
export function runnerFromNowAccuracy(rows: readonly ResolvedFromNow[]) {
  const out = [];
  for (const age of RUNNER_GRID_AGES_S) {
    const atAge = rows.filter((r) => r.gridAgeS === age);
    const families = [...new Set(atAge.map((r) => modelFamily(r.modelVersion)))].sort();
    for (const family of families) {
      const fx = atAge.filter((r) => modelFamily(r.modelVersion) === family);
      for (const t of RUNNER_TIERS) {
        const xs: Scored[] = fx.map((r) => ({ prob: r.odds[tierKey(t)], label: r.peakMult >= t }));
        const positives = xs.filter((x) => x.label).length;
        out.push({
          age_band_s: age,
          model_version: family,
          target: tierKey(t),
          n: xs.length,
          positives,
          mean_predicted: xs.reduce((s, x) => s + x.prob, 0) / xs.length,
          observed_rate: positives / xs.length,
          brier: brier(xs),
          auc: auc(xs),
          expected_calibration_error: expectedCalibrationError(xs),
        });
      }
    }
  }
  return { definition: RUNNER_FROM_NOW_DEFINITION, bands: out };
}
