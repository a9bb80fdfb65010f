import { createModelFitStore, type ModelFit } from '../../../db/scoring/model-fit-store';
import type { LearnedMetric } from '../../../domain/scoring/learned-knn-model';
import { call, useApi } from '../../support/api-harness';
import { expectConforms } from '../../support/contract';

/**
 * A knn-v2 refit's learned metric (weights, k, held-out log loss) is part of what /api/predictor/health and /api/scope
 * show for that model; a knn-v1 fit shows none.
 */
const { t, api } = useApi({ env: { API_READ_CACHE_TTL_MS: '0' } });

const metric: LearnedMetric = {
  weights: { vSolSol: 1, logSwaps: 0.8, smartCount: 0 },
  k: 25,
  heldOutLogLoss: 0.0512,
  heldOutRows: 1200,
  candidate: 'logistic-top8+logistic-axis',
  logisticPriorWeight: 0.5,
  logisticAxisWeight: 2,
};

const fit = (predictor: ModelFit['predictor'], version: string, m: LearnedMetric | null): ModelFit => ({
  predictor,
  ageBucket: 30,
  version,
  status: 'live',
  samplesTotal: 4000,
  samplesPositive: 40,
  minSamples: 200,
  calibrationMethod: 'isotonic',
  calibrationSamples: 1200,
  fittedAt: new Date(),
  fitMs: 1234,
  metric: m,
  backtest: null,
});

describe('the learned metric on the health and scope pages', () => {
  it('shows a knn-v2 fit’s weights, k and held-out loss, and null for a fixed metric', async () => {
    await createModelFitStore(t.db).recordFits([
      fit('grad_prob', 'knn-v2@30:4000:k25:0123456789abcd', metric),
      fit('rug_prob', 'rug-knn-v1@30:4000:0123456789abcd', null),
    ]);

    const health = await call(`${api.url}/api/predictor/health`);
    expectConforms('get', '/api/predictor/health', 200, health.body);
    const rows = health.body.predictors as { name: string; age_bucket: number; metric: unknown }[];
    expect(rows.find((p) => p.name === 'grad_prob' && p.age_bucket === 30)!.metric).toEqual({
      candidate: 'logistic-top8+logistic-axis',
      k: 25,
      held_out_log_loss: 0.0512,
      held_out_rows: 1200,
      weights: { vSolSol: 1, logSwaps: 0.8, smartCount: 0 },
      logistic_prior_weight: 0.5,
      logistic_axis_weight: 2,
    });
    expect(rows.find((p) => p.name === 'rug_prob' && p.age_bucket === 30)!.metric).toBeNull();
    expect(rows.find((p) => p.name === 'grad_prob' && p.age_bucket === 60)!.metric).toBeNull();

    const scope = await call(`${api.url}/api/scope`);
    expectConforms('get', '/api/scope', 200, scope.body);
    expect(scope.body.model_versions['grad_prob@30']).toBe('knn-v2@30:4000:k25:0123456789abcd');
    expect(Object.keys(scope.body.model_metrics)).toEqual(['grad_prob@30']);
    expect(scope.body.model_metrics['grad_prob@30']).toMatchObject({ k: 25, candidate: 'logistic-top8+logistic-axis', logistic_axis_weight: 2 });
  });
});
