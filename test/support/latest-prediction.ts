import type { LatestPrediction } from '../../domain/live/enriched-mint';
import { T0 } from './hand-built-mint';

/** A hand-built mint's latest logged prediction: its 60 s score, with every model's output. */
export const latestPrediction = (o: Partial<LatestPrediction> = {}): LatestPrediction => ({
  ageBucket: 60,
  asOf: new Date(T0 + 60_000),
  gradProb: 0.2,
  calibration: { age_bucket: 60 },
  priceSol: 4e-8,
  rugProb: 0.1,
  runnerOdds: { '2x': 0.3, '3x': 0.2, '5x': 0.1, '10x': 0.05, '20x': 0.01 },
  survivalProb: 0.6,
  ...o,
});
