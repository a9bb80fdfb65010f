import type { Schemas } from '../../clients/api/api-client';
import { api, failureText, unreachable } from '../lib/api';
import { h, notice, type Child } from '../lib/dom';
import { ago, dateTime, int, pct } from '../lib/format';
import { calibrationTable, forwardTable, metricsList, precisionTable } from './accuracy-tables';
import { reliabilityDiagram } from './reliability-diagram';

export type Accuracy = Schemas['Accuracy'];

/** /api/accuracy, or what to show instead: a 503 before the first recompute is a state of the service, not a failure. */
export async function loadAccuracy(): Promise<{ data: Accuracy } | { problem: HTMLElement }> {
  try {
    const r = await api.GET('/api/accuracy');
    if (r.data) return { data: r.data };
    if (r.response.status === 503) {
      return {
        problem: notice(
          'info',
          'Not computed yet. Accuracy counts only forward predictions whose mints have resolved (24 h after launch); ',
          'it is recomputed every few minutes and appears here after the first run.',
        ),
      };
    }
    return { problem: notice('problem', failureText(r.response.status, r.error)) };
  } catch (e) {
    if (!unreachable(e)) throw e;
    return { problem: notice('problem', 'The API is unreachable; retrying.') };
  }
}

const computed = (a: Accuracy): Child =>
  h('p', { class: 'sub' }, `Forward, resolved predictions of the last ${a.window_days} days · computed ${ago(a.computed_at)} (${dateTime(a.computed_at)})`);

/** The dashboard's card: the current grad_prob family's diagram, headline figures and precision by band. */
export function accuracySummary(a: Accuracy): Child[] {
  const m = a.grad_prob[0];
  if (!m) return [notice('info', 'No grad_prob predictions have resolved in the window yet.')];
  return [
    computed(a),
    metricsList(m),
    h(
      'figure',
      { class: 'chart' },
      reliabilityDiagram(m.calibration, `Reliability of ${m.model_version}`),
      h('figcaption', {}, `Reliability diagram, ${m.model_version}`),
    ),
    precisionTable(m),
    h('p', {}, h('a', { href: '/accuracy' }, 'Every model, cell and target on the accuracy page')),
  ];
}

/** The accuracy page: every family with its diagram and cells, then base rates, rug, runners and survival. */
export function accuracyDetail(a: Accuracy): Child[] {
  const families = a.grad_prob.map((m) =>
    h(
      'section',
      { class: 'panel family', 'aria-label': `grad_prob, ${m.model_version}` },
      h('h2', {}, `grad_prob · ${m.model_version}`),
      h('p', { class: 'sub' }, m.first_predicted_at ? `since ${dateTime(m.first_predicted_at)}` : ''),
      metricsList(m),
      h(
        'div',
        { class: 'pair' },
        h('figure', { class: 'chart' }, reliabilityDiagram(m.calibration, `Reliability of ${m.model_version}`), h('figcaption', {}, 'Reliability diagram')),
        calibrationTable(m.calibration, `Calibration cells, ${m.model_version}`),
      ),
      precisionTable(m),
    ),
  );
  const b = a.base_rates;
  const post = a.post_graduation;
  const gate = a.post_grad_survival;
  return [
    computed(a),
    h(
      'p',
      { class: 'sub' },
      'Versions of the latest logged prediction: ',
      Object.entries(a.current_model_versions)
        .map(([k, v]) => `${k} ${v ?? 'none logged'}`)
        .join(' · '),
    ),
    ...(families.length ? families : [notice('info', 'No grad_prob predictions have resolved in the window yet.')]),
    h(
      'section',
      { class: 'panel', 'aria-label': 'Base rates and after graduation' },
      h('h2', {}, 'Base rates and after graduation'),
      h(
        'dl',
        { class: 'metrics' },
        h('dt', {}, 'resolved mints'),
        h('dd', {}, int(b.n_mints)),
        h('dt', {}, 'graduated'),
        h('dd', {}, pct(b.graduation_rate)),
        h('dt', {}, '2× from the call'),
        h('dd', {}, pct(b.runner_2x_from_call)),
        h('dt', {}, '5× from the call'),
        h('dd', {}, pct(b.runner_5x_from_call)),
        h('dt', { title: post.definition }, 'held 30 min after graduating'),
        h('dd', {}, `${pct(post.sustain_rate_30m)} of ${int(post.n)}`),
      ),
      h(
        'p',
        {},
        `post_grad_survival is ${gate.state}`,
        gate.reason ? `: ${gate.reason}` : '',
        ` (gate: ${int(gate.gate.n)} of ${int(gate.gate.min_n)} graduates, calibration error ${pct(gate.gate.calibration_error)} against ${pct(gate.gate.max_calibration_error)}).`,
      ),
    ),
    h('section', { class: 'panel', 'aria-label': 'rug_prob' }, h('h2', {}, 'rug_prob'), forwardTable(a.rug_prob, 'rug_prob, forward')),
    h(
      'section',
      { class: 'panel', 'aria-label': 'Runner odds' },
      h('h2', {}, 'Runner odds'),
      forwardTable(a.runner_prob, 'Runner odds by tier, from the call'),
    ),
  ];
}
