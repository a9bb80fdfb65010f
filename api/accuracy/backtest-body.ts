import type { HoldoutBacktest } from '../../domain/scoring/holdout-backtest';

/**
 * A fit's walk-forward backtest as /api/predictor/health reports it: kept apart from the forward figures of
 * /api/accuracy, and `synthetic` when the corpus it was fitted on holds simulated history (the version's tag).
 */
export function backtestBody(version: string, b: HoldoutBacktest) {
  return {
    method: 'walk_forward_holdout' as const,
    synthetic: version.includes('+synthetic'),
    n: b.n,
    positives: b.positives,
    auc: b.auc,
    calibration: b.cells.map((c) => ({ lo: c.lo, hi: c.hi, n: c.n, positives: c.positives })),
  };
}
