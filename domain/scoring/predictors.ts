import { MIN_GRAD_CORPUS } from './grad-prob-model';
import { MIN_RUG_CORPUS } from './rug-model';
import { MIN_RUNNER_CORPUS } from './runner-model';
import { MIN_SURVIVAL_CORPUS } from './survival-model';

/** The predictors /api/predictor/health reports, and the corpus each needs before it leaves `warming`. */
export const PREDICTORS = ['grad_prob', 'rug_prob', 'runner_prob', 'post_grad_survival'] as const;
export type PredictorName = (typeof PREDICTORS)[number];

export const MIN_SAMPLES: Record<PredictorName, number> = {
  grad_prob: MIN_GRAD_CORPUS,
  rug_prob: MIN_RUG_CORPUS,
  runner_prob: MIN_RUNNER_CORPUS,
  post_grad_survival: MIN_SURVIVAL_CORPUS,
};
