import type { Schemas } from '../../clients/api/api-client';
import { api, failureText, storedKey, unreachable } from '../lib/api';
import { h, notice, panel, fill } from '../lib/dom';
import { dateTime } from '../lib/format';
import { poll } from '../lib/poller';
import { latestLogged } from './grad-prob-text';
import { mintNow, predictionsView } from './mint-view';
import { similarLaunchesView } from './similar-launches-view';

type Mint = Schemas['EnrichedMintFields'];
type MintRecord = { mint: Mint; source: string; similar?: Schemas['SimilarLaunches'] | null };

/** The mint now: its probe with a key (any mint), else its entry in the public live list (while it is tracked). */
async function currentRecord(mint: string): Promise<MintRecord | null> {
  if (storedKey()) {
    const probe = await api.GET('/api/v1/probe/{mint}', { params: { path: { mint } } });
    if (probe.data) return { mint: probe.data, source: '/api/v1/probe', similar: probe.data.similar_launches };
  }
  const live = await api.GET('/api/live');
  const m = live.data?.mints.find((x) => x.mint === mint);
  return m ? { mint: m, source: 'the live list' } : null;
}

/** /mint/{address}: one mint's page, refreshed every 5 s while it is young enough to change. */
export function startMintPage(main: HTMLElement): void {
  const mint = decodeURIComponent(location.pathname.split('/').pop() ?? '');
  const heading = main.querySelector('h1')!;
  const now = h('div', {}, h('p', { class: 'muted' }, 'Loading…'));
  const predictions = h('div', {}, h('p', { class: 'muted' }, 'Loading…'));
  const similar = h('div', {}, h('p', { class: 'muted' }, 'Loading…'));
  main.append(
    h('p', { class: 'address' }, 'Mint address ', h('code', {}, mint)),
    panel('mint-now', 'Now', now),
    panel('mint-predictions', 'Predictions and outcome', predictions),
    panel('mint-similar', 'Similar launches', similar),
  );

  poll(async () => {
    try {
      const [byMint, record] = await Promise.all([api.GET('/api/predictions/by_mint/{mint}', { params: { path: { mint } } }), currentRecord(mint)]);
      if (byMint.data) fill(predictions, ...predictionsView(byMint.data));
      else fill(predictions, notice(byMint.response.status === 404 ? 'info' : 'problem', failureText(byMint.response.status, byMint.error)));
      fill(similar, ...similarLaunchesView(record?.similar, Boolean(storedKey())));
      if (record) {
        heading.textContent = `${record.mint.name || 'Unnamed'} (${record.mint.symbol || '?'})`;
        document.title = `${heading.textContent} · Launchpad predictions`;
        fill(now, ...mintNow(record.mint, record.source, latestLogged(byMint.data)));
      } else {
        fill(
          now,
          h(
            'p',
            { class: 'muted' },
            'Not in the live list (it tracks mints for their first minutes). ',
            storedKey() ? 'The probe did not find it either.' : 'With an API key (on the live page) the probe shows any mint this service has seen.',
          ),
        );
      }
      main.dataset.loaded = `${dateTime(new Date().toISOString())}`;
      return record && record.mint.age_s < 600 ? 5_000 : 60_000;
    } catch (e) {
      if (!unreachable(e)) throw e;
      fill(now, notice('problem', 'The API is unreachable; retrying.'));
      return 10_000;
    }
  });
}
