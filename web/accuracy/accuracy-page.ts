import { h, fill } from '../lib/dom';
import { poll } from '../lib/poller';
import { accuracyDetail, loadAccuracy } from './accuracy-view';
import { loadPredictorHealth, servingModels } from './serving-models';

/** /accuracy: the serving models with their backtests, then every figure of /api/accuracy, refreshed each minute (the API recomputes it every few). */
export function startAccuracyPage(main: HTMLElement): void {
  const body = h('div', { class: 'accuracy', 'aria-busy': 'true' }, h('p', { class: 'muted' }, 'Loading…'));
  main.append(
    h(
      'p',
      { class: 'lede' },
      'Forward figures count live, forward-logged predictions only, scored against outcomes that resolved after they were logged. ',
      "The serving models' walk-forward backtest comes first, in its own section, and is never counted among them.",
    ),
    body,
  );
  poll(async () => {
    const [r, health] = await Promise.all([loadAccuracy(), loadPredictorHealth()]);
    // The serving models and their backtest first, in a section of their own: figures before forward outcomes exist.
    fill(body, health && servingModels(health), ...('data' in r ? accuracyDetail(r.data) : [r.problem]));
    body.removeAttribute('aria-busy');
    return 60_000;
  });
}
