import type { Schemas } from '../../clients/api/api-client';
import { api, failureText, storedKey, unreachable } from '../lib/api';
import { h, notice, panel, fill } from '../lib/dom';
import { clock, mult, num, pct, usd } from '../lib/format';
import { poll } from '../lib/poller';
import { keyForm } from './key-form';

type Signal = Schemas['Signal'];
type Tier = 'all' | 'ACT' | 'WATCH' | 'SCOUT';
const TIERS: Tier[] = ['all', 'ACT', 'WATCH', 'SCOUT'];
const KEEP = 50;

function signalItem(s: Signal): HTMLElement {
  return h(
    'li',
    { class: 'signal' },
    h('span', { class: `tier tier-${s.tier}` }, s.tier),
    h('a', { href: `/mint/${s.mint}` }, s.name || s.symbol || s.mint),
    ' ',
    h('span', { class: 'sym' }, s.symbol),
    h(
      'span',
      { class: 'sub block' },
      `composite ${num(s.composite, 2)} over ${num(s.threshold, 2)} · gp@60 ${pct(s.gp_60)} · smart ${s.smart_money_in} · ${mult(s.max_mult)} · ${usd(s.market_cap_usd)} · ${clock(s.fired_at)}`,
    ),
  );
}

/**
 * The composite signal feed (`/api/v1/signals`, a keyed operation) by tier, polled with its cursor every 3 s so no
 * signal is missed or repeated. Until the feed is live it says so (501); without a key it asks for one (401); a key
 * below Builder is told its tier (403).
 */
export function signalsPanel(): HTMLElement {
  let tier: Tier = 'all';
  let cursor = 0;
  let signals: Signal[] = [];
  let generation = 0;
  const state = h('div', { class: 'signals-state' });
  const list = h('ol', { class: 'signals', 'aria-label': 'Signals, newest first' });
  const tabs = TIERS.map((t) =>
    h('button', { type: 'button', 'aria-pressed': String(t === tier), 'data-tier': t, onclick: () => choose(t) }, t === 'all' ? 'All' : t),
  );
  const element = panel(
    'signals',
    'Signal feed',
    h('div', { class: 'tabs', role: 'group', 'aria-label': 'Tier' }, tabs),
    state,
    list,
    keyForm(() => restart()),
  );

  function choose(t: Tier): void {
    tier = t;
    tabs.forEach((b) => b.setAttribute('aria-pressed', String(b.dataset.tier === t)));
    cursor = 0;
    signals = [];
    fill(list);
    restart();
  }

  function restart(): void {
    generation++;
    poller.now();
  }

  async function refresh(): Promise<number> {
    const mine = generation;
    try {
      const r = await api.GET('/api/v1/signals', { params: { query: { since: cursor, tier, limit: 100 } } });
      if (mine !== generation) return 3000;
      element.dataset.state = String(r.response.status);
      if (r.data) {
        cursor = r.data.cursor;
        signals = [...r.data.signals.slice().reverse(), ...signals].slice(0, KEEP);
        fill(list, ...signals.map(signalItem));
        fill(state, signals.length ? '' : h('p', { class: 'muted' }, `No ${tier === 'all' ? '' : `${tier} `}signals in the last hour.`));
        return r.data.has_more ? 250 : 3000;
      }
      const status = r.response.status;
      const hint =
        status === 401 && !storedKey()
          ? ' Builder keys and above see ACT, WATCH and SCOUT signals here.'
          : status === 501
            ? ' This panel fills by itself once it is.'
            : '';
      const expected = status === 501 || (status === 401 && (r.error as { error?: string } | undefined)?.error === 'missing_key');
      fill(state, notice(expected ? 'info' : 'problem', failureText(status, r.error), hint));
      return status === 501 ? 30_000 : status === 401 || status === 403 ? 60_000 : 10_000;
    } catch (e) {
      if (!unreachable(e)) throw e;
      fill(state, notice('problem', 'The API is unreachable; retrying.'));
      return 10_000;
    }
  }

  const poller = poll(refresh);
  return element;
}
