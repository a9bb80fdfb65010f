import type { LearnedMetric } from '../../domain/scoring/learned-knn-model';

/** A fit's learned k-NN metric as the API shows it (openapi `LearnedMetric`). */
export const learnedMetricBody = (m: LearnedMetric) => ({
  candidate: m.candidate,
  k: m.k,
  held_out_log_loss: m.heldOutLogLoss,
  held_out_rows: m.heldOutRows,
  weights: m.weights,
  logistic_prior_weight: m.logisticPriorWeight ?? 0,
  logistic_axis_weight: m.logisticAxisWeight ?? 0,
});
