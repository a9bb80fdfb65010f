import { table } from '../accuracy/accuracy-tables';
import { api, failureText, unreachable } from '../lib/api';
import { h, notice, panel, fill } from '../lib/dom';
import { dateTime, int } from '../lib/format';
import { poll } from '../lib/poller';
import { proofChecker } from './proof-checker';

/** The hourly grad_prob commits, newest first, refreshed each minute (a commit follows each closed UTC hour). */
function commitsPanel(): HTMLElement {
  const body = h('div', {}, h('p', { class: 'muted' }, 'Loading…'));
  const element = panel('commits', 'Hourly commits', body);
  poll(async () => {
    try {
      const r = await api.GET('/api/ledger/commits', { params: { query: { limit: 48 } } });
      element.dataset.state = String(r.response.status);
      if (!r.data) {
        fill(body, notice(r.response.status === 501 ? 'info' : 'problem', failureText(r.response.status, r.error)));
        return r.response.status === 501 ? 300_000 : 60_000;
      }
      // A prediction to try the checker with: the newest committed hour's last leaf.
      const tryId = [...r.data.commits].reverse().find((c) => c.last_prediction_id !== null)?.last_prediction_id ?? null;
      fill(
        body,
        ...(tryId === null
          ? []
          : [
              h(
                'p',
                { class: 'try-proof' },
                'Try it: ',
                h('a', { href: `/audit?prediction=${tryId}` }, `check the proof of prediction ${tryId}`),
                ', committed in the newest hour below.',
              ),
            ]),
        r.data.commits.length
          ? table(
              `The latest ${r.data.count} commits of the ${r.data.track} track`,
              ['hour (UTC)', 'leaves', 'merkle root', 'committed'],
              r.data.commits.map((c) => [dateTime(c.hour_start), int(c.leaf_count), h('code', { class: 'hash' }, c.merkle_root_hex), dateTime(c.committed_at)]),
            )
          : h('p', { class: 'muted' }, 'No hour has been committed yet.'),
      );
      return 60_000;
    } catch (e) {
      if (!unreachable(e)) throw e;
      fill(body, notice('problem', 'The API is unreachable; retrying.'));
      return 30_000;
    }
  });
  return element;
}

/** /audit: every prediction is committed in an hourly merkle tree; anyone can check a proof against it here. */
export function startAuditPage(main: HTMLElement): void {
  const id = new URLSearchParams(location.search).get('prediction');
  main.append(
    h(
      'p',
      { class: 'lede' },
      'Each closed UTC hour, every prediction logged in it becomes a leaf of a merkle tree whose root is published below, ',
      'so no prediction can be changed or removed afterwards without the proofs failing.',
    ),
    h(
      'div',
      { class: 'dash' },
      h('div', { class: 'dash-main' }, proofChecker(id && /^\d+$/.test(id) ? id : null)),
      h('div', { class: 'dash-side' }, commitsPanel()),
    ),
  );
}
