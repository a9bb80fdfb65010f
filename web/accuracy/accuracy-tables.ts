import type { Schemas } from '../../clients/api/api-client';
import { h, type Child } from '../lib/dom';
import { DASH, int, num, pct } from '../lib/format';

type ModelAccuracy = Schemas['ModelAccuracy'];
type ForwardAccuracy = Schemas['ForwardAccuracy'];
type Cell = Schemas['CalibrationCell'];

/** A data table: the first column heads its row; `numeric` columns (all but the first, unless named) align right. */
export function table(caption: string, head: string[], rows: Child[][], o: { numeric?: number[]; id?: string } = {}): HTMLElement {
  const numeric = (i: number) => (o.numeric ? o.numeric.includes(i) : i > 0);
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: 'data', id: o.id },
      h('caption', {}, caption),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          head.map((t, i) => h('th', { scope: 'col', class: numeric(i) ? 'num' : undefined }, t)),
        ),
      ),
      h(
        'tbody',
        {},
        rows.map((r) =>
          h(
            'tr',
            {},
            r.map((c, i) => (i === 0 ? h('th', { scope: 'row' }, c) : h('td', { class: numeric(i) ? 'num' : undefined }, c))),
          ),
        ),
      ),
    ),
  );
}

/** Precision and count of predictions at or above 0.5, 0.7 and 0.9: what a trader acting on a threshold gets. */
export function precisionTable(m: ModelAccuracy): HTMLElement {
  return table(
    `Precision by band, ${m.model_version}`,
    ['grad_prob at least', 'predictions', 'graduated', 'precision'],
    m.threshold_bands.map((b) => [pct(b.min_prob, 0), int(b.n), int(b.graduated), b.n === 0 ? 'none yet' : pct(b.precision)]),
    { id: 'precision-bands' },
  );
}

export function metricsList(m: { n: number; brier: number | null; auc: number | null; expected_calibration_error: number | null }): HTMLElement {
  const item = (term: string, value: string, title: string) => [h('dt', { title }, term), h('dd', {}, value)];
  return h(
    'dl',
    { class: 'metrics' },
    ...item('resolved', int(m.n), 'Resolved forward predictions'),
    ...item('AUC', num(m.auc), 'How well it ranks graduates above the rest (0.5 = chance)'),
    ...item('Brier', num(m.brier, 4), 'Mean squared error of the probability (lower is better)'),
    ...item('ECE', num(m.expected_calibration_error, 4), 'Expected calibration error over 10 bins (lower is better)'),
  );
}

export function calibrationTable(cells: readonly Cell[], caption: string): HTMLElement {
  return table(
    caption,
    ['age · band', 'n', 'mean predicted', 'graduated'],
    cells.map((c) => [
      `${c.age_bucket} s · ${pct(c.confidence_band.lo, 0)}–${pct(c.confidence_band.hi, 0)}`,
      int(c.n),
      c.n ? pct(c.mean_predicted) : DASH,
      c.n ? pct(c.historical_actual_rate) : DASH,
    ]),
  );
}

export function forwardTable(rows: readonly ForwardAccuracy[], caption: string): HTMLElement {
  return table(
    caption,
    ['target · family', 'n', 'positives', 'AUC', 'Brier', 'ECE'],
    rows.map((r) => [`${r.target} · ${r.model_version}`, int(r.n), int(r.positives), num(r.auc), num(r.brier, 4), num(r.expected_calibration_error, 4)]),
  );
}
