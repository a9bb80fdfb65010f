import type { Schemas } from '../../clients/api/api-client';
import { api, unreachable } from '../lib/api';
import { h, type Child } from '../lib/dom';
import { DASH, int, num, pct } from '../lib/format';
import { table } from './accuracy-tables';

type PredictorHealth = Schemas['PredictorHealth'];
type Predictor = PredictorHealth['predictors'][number];

/** /api/predictor/health, or null when it cannot be read: the forward figures below do not depend on it. */
export async function loadPredictorHealth(): Promise<PredictorHealth | null> {
  try {
    return (await api.GET('/api/predictor/health')).data ?? null;
  } catch (e) {
    if (!unreachable(e)) throw e;
    return null;
  }
}

const backtestLabel = (p: Predictor) => (p.backtest ? (p.backtest.synthetic ? 'backtest, synthetic' : 'backtest') : 'no backtest yet');

/**
 * What the worker serves now (its latest fits, not the latest logged prediction) and each fit's walk-forward
 * backtest. A section of its own, labelled as a backtest, so its figures never read as forward accuracy.
 */
export function servingModels(health: PredictorHealth): Child {
  const serving = health.predictors.filter((p) => p.model_version !== null);
  const synthetic = serving.some((p) => p.backtest?.synthetic);
  return h(
    'section',
    { class: 'panel', id: 'serving-models', 'aria-label': 'Serving models and their backtests' },
    h('h2', {}, 'Serving models · walk-forward backtest'),
    h(
      'p',
      { class: 'sub' },
      "Backtest, not forward accuracy: each fit's newest held-out slice of its own corpus, scored against the earlier rows only. ",
      'AUC ranks by the raw neighbour rate on rows the index never saw; the band fill is the slice the calibrator was fitted on.',
      synthetic ? ' Synthetic: fitted on simulated history, not the real market.' : '',
    ),
    serving.length
      ? table(
          'Serving versions and their backtests',
          ['model · age', 'status', 'version', 'kind', 'held out', 'graduated / positive', 'AUC'],
          serving.map((p) => [
            `${p.name} · ${p.age_bucket} s`,
            p.status,
            p.model_version ?? DASH,
            backtestLabel(p),
            p.backtest ? int(p.backtest.n) : DASH,
            p.backtest ? `${int(p.backtest.positives)} (${pct(p.backtest.n ? p.backtest.positives / p.backtest.n : null)})` : DASH,
            p.backtest ? num(p.backtest.auc) : DASH,
          ]),
          { numeric: [4, 5, 6], id: 'serving-backtests' },
        )
      : h('p', {}, 'No model is fitted yet: the worker fits each one once its corpus has enough resolved mints.'),
  );
}
