import type { LearnedMetric } from '../../domain/scoring/learned-knn-model';
import type { HoldoutBacktest } from '../../domain/scoring/holdout-backtest';
import type { PredictorName } from '../../domain/scoring/predictors';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

/** The latest fit of one predictor at one age, as /api/predictor/health reports it. */
export type ModelFit = {
  predictor: PredictorName;
  ageBucket: number;
  version: string;
  status: 'warming' | 'live';
  samplesTotal: number;
  samplesPositive: number;
  minSamples: number;
  calibrationMethod: string;
  calibrationSamples: number;
  fittedAt: Date;
  fitMs: number;
  /** The learned metric of this fit (knn-v2 families); null for a fixed metric. */
  metric: LearnedMetric | null;
  /** The fit's walk-forward backtest on its held-out slice; null for fits recorded before it was kept. */
  backtest: HoldoutBacktest | null;
};

export function createModelFitStore(handle: Db) {
  const db = knexOf(handle);
  return {
    /** One row per (predictor, age): a refit replaces it. */
    async recordFits(fits: readonly ModelFit[]): Promise<void> {
      if (!fits.length) return;
      await db('model_fits')
        .insert(
          fits.map((f) => ({
            predictor: f.predictor,
            age_bucket: f.ageBucket,
            version: f.version,
            status: f.status,
            samples_total: f.samplesTotal,
            samples_positive: f.samplesPositive,
            min_samples: f.minSamples,
            calibration_method: f.calibrationMethod,
            calibration_samples: f.calibrationSamples,
            fitted_at: f.fittedAt,
            fit_ms: f.fitMs,
            metric: f.metric === null ? null : JSON.stringify(f.metric),
            backtest: f.backtest && JSON.stringify(f.backtest),
          })),
        )
        .onConflict(['predictor', 'age_bucket'])
        .merge();
    },

    async latestFits(): Promise<ModelFit[]> {
      const rows = await db('model_fits').orderBy([{ column: 'predictor' }, { column: 'age_bucket' }]);
      return rows.map((r) => ({
        predictor: r.predictor,
        ageBucket: r.age_bucket,
        version: r.version,
        status: r.status,
        samplesTotal: r.samples_total,
        samplesPositive: r.samples_positive,
        minSamples: r.min_samples,
        calibrationMethod: r.calibration_method,
        calibrationSamples: r.calibration_samples,
        fittedAt: r.fitted_at,
        fitMs: r.fit_ms,
        metric: r.metric ?? null,
        backtest: r.backtest ?? null,
      }));
    },
  };
}
export type ModelFitStore = ReturnType<typeof createModelFitStore>;
