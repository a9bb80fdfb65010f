import { accuracySummary, loadAccuracy } from '../accuracy/accuracy-view';
import { api, failureText, storedKey, unreachable } from '../lib/api';
import { h, notice, panel, fill } from '../lib/dom';
import { ago, clock } from '../lib/format';
import { backoff, poll } from '../lib/poller';
import { createLiveTable } from './live-table';
import { signalsPanel } from './signals-panel';
import { statusPanel } from './status-panel';

/**
 * Polls the public live list with its ETag: an unchanged snapshot costs a bodiless 304. The request skips the
 * browser cache (`no-store`) so the page sees the 304 itself and knows the list is current, not merely cached.
 * The public list withholds the predictions; with a key given in the signal panel's form the page reads the keyed
 * list instead (real time for Builder and up, 5 minutes delayed for Free keys).
 */
function livePanel(): HTMLElement {
  const table = createLiveTable();
  const state = h('div', { class: 'live-state', 'aria-live': 'polite' });
  const updated = h('p', { class: 'sub updated' });
  const element = panel('live', 'Tracked mints', state, table.element);
  table.element.querySelector('.table-tools')!.prepend(updated);
  let etag: string | undefined;
  let generatedAt: string | undefined;
  const retry = backoff(2000, 30_000);
  const stamp = () =>
    (updated.textContent = generatedAt ? `Snapshot of ${clock(generatedAt)} (${ago(generatedAt)}), checked ${clock(new Date().toISOString())}` : '');

  poll(async () => {
    try {
      const keyed = storedKey() !== undefined;
      const r = keyed
        ? await api.GET('/api/v1/live', { params: { query: { limit: 200 } }, cache: 'no-store' })
        : await api.GET('/api/live', { params: { header: etag ? { 'If-None-Match': etag } : {} }, cache: 'no-store' });
      if (r.response.status === 304) {
        stamp();
        return retry.ok();
      }
      if (!r.data) {
        const waiting = r.response.status === 503;
        fill(
          state,
          waiting
            ? notice('info', 'The live list is not built yet: it appears once the worker’s projector runs.')
            : notice('problem', failureText(r.response.status, r.error)),
        );
        return retry.failed();
      }
      etag = keyed ? undefined : (r.response.headers.get('ETag') ?? undefined);
      generatedAt = r.data.generated_at;
      fill(
        state,
        r.data.withheld_fields?.length ? notice('info', 'Predictions are withheld from the public list: give an API key (signal feed panel) to see them.') : '',
        r.data.delay_s > 0
          ? notice('info', `This key’s tier sees the list ${Math.round(r.data.delay_s / 60)} minutes delayed; Builder and up see it in real time.`)
          : '',
        r.data.stale ? notice('problem', `The live list stopped refreshing ${r.data.age_s ?? '?'} s ago; showing the last snapshot.`) : '',
        r.data.count === 0 ? notice('info', 'No mint is being tracked right now.') : '',
      );
      table.update(r.data.mints, r.data.generated_at);
      element.dataset.rows = String(table.rowCount());
      stamp();
      retry.ok();
      return Math.max(2, r.data.refresh_interval_s) * 1000;
    } catch (e) {
      if (!unreachable(e)) throw e;
      fill(state, notice('problem', 'The API is unreachable; retrying.'));
      return retry.failed();
    }
  });
  return element;
}

function accuracyPanel(): HTMLElement {
  const body = h('div', {}, h('p', { class: 'muted' }, 'Loading…'));
  const element = panel('accuracy', 'Forward accuracy', body);
  poll(async () => {
    const r = await loadAccuracy();
    fill(body, ...('data' in r ? accuracySummary(r.data) : [r.problem]));
    element.dataset.state = 'data' in r ? 'ready' : 'waiting';
    return 60_000;
  });
  return element;
}

function linksPanel(): HTMLElement {
  const link = (href: string, text: string, what: string) => h('li', {}, h('a', { href }, text), ` ${what}`);
  return panel(
    'explore',
    'Explore',
    h(
      'ul',
      { class: 'links' },
      link('/docs', 'API docs', 'every operation, to try in the browser'),
      link('/accuracy', 'Accuracy', 'reliability by model, cell and target'),
      link('/audit', 'Audit trail', 'hourly merkle commits and a proof checker'),
      link('/api/scope', 'Scope', 'what is predicted, at what age, on what corpus'),
      h('li', {}, 'A mint’s name in the table opens its page: its predictions, outcome and proofs.'),
    ),
  );
}

export function startLivePage(main: HTMLElement): void {
  main.append(
    h(
      'p',
      { class: 'lede' },
      'Every new non-mayhem launch, scored at 30 s and 60 s: graduation, runner and rug odds, calibrated on this deployment’s own resolved mints.',
    ),
    h(
      'div',
      { class: 'dash' },
      h('div', { class: 'dash-main' }, livePanel()),
      h('div', { class: 'dash-side' }, signalsPanel(), accuracyPanel(), statusPanel(), linksPanel()),
    ),
  );
}
