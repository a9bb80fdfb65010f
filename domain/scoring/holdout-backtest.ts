import { auc } from './holdout-metrics';
import type { ConfidenceBand } from './confidence-band';

type BandCell = ConfidenceBand & { n: number; positives: number };

/**
 * A fit's walk-forward backtest: the newest slice of its corpus, held out of the index, scored against the earlier
 * rows only. AUC is out of sample (the index never saw these rows); the cells are the same slice the calibrator
 * was fitted on, so they show the calibrated bands' fill rather than an out-of-sample calibration check.
 */
export type HoldoutBacktest = { n: number; positives: number; auc: number | null; cells: BandCell[] };

export function holdoutBacktest(raw: readonly { raw: number; label: boolean }[], cells: BandCell[]): HoldoutBacktest {
  return {
    n: raw.length,
    positives: raw.filter((r) => r.label).length,
    auc: auc(raw.map((r) => ({ prob: r.raw, label: r.label }))),
    cells,
  };
}
