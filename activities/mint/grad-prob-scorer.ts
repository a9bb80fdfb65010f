import type { CreateEvent, TradeEvent } from '../../domain/mint/launch-events';

/** The calibration record every prediction carries inline (the spec's `grad_prob_calibration`). */
export type CalibrationRecord = {
  age_bucket: number;
  confidence_band: { lo: number; hi: number };
  n: number;
  historical_actual_rate: number | null;
  model_version: string;
};

export type GradProbScore = {
  prob: number;
  raw: number;
  modelVersion: string;
  features: Record<string, number | boolean>;
  calibration: CalibrationRecord;
};

/** Scores one mint at one age from its facts up to that age. Implementations hold the fitted model. */
export interface GradProbScorer {
  /** `bucket` picks the model (30 or 60); `ageS` is the actual age the trades run up to. */
  score(create: CreateEvent, tradesSoFar: TradeEvent[], at: { bucket: number; ageS: number }): Promise<GradProbScore>;
}
