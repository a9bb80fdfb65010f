import type { Schemas } from '../../clients/api/api-client';
import { api, unreachable } from '../lib/api';
import { h, notice, panel, fill } from '../lib/dom';
import { age, ago, DASH } from '../lib/format';
import { backoff, poll } from '../lib/poller';

type Health = Schemas['HealthResponse'];
type Status = Schemas['StatusResponse'];

// "All systems normal" only when the API lists no reason at all; otherwise the reasons follow the headline.
const HEALTH_TEXT: Record<Health['status'], string> = {
  ok: 'All systems normal',
  degraded: 'Degraded: not everything is published',
  unknown: 'Starting: no watchdog tick yet',
  stale: 'Watchdog ticks have stopped',
};

function row(term: string, ...desc: (Node | string)[]): HTMLElement[] {
  return [h('dt', {}, term), h('dd', {}, ...desc)];
}

const state = (s: string) => h('span', { class: `state state-${s}` }, s.replace(/_/g, ' '));

/** Which inputs are simulated, in words: the figures on a demo are synthetic and the page says so. */
function simulatedInputs(i: Health['inputs']): string | undefined {
  if (!i.simulated) return undefined;
  const parts = [
    ...i.feeds.filter((f) => f.simulated).map((f) => `the ${f.name} launch feed`),
    ...(i.seeded.history ? ['a seeded history'] : []),
    ...(i.seeded.smart_wallets ? ['seeded smart wallets'] : []),
    ...(i.native_coin_price.simulated ? ['the SOL/USD price'] : []),
    ...(i.perps_exchange.simulated ? ['the perps exchange'] : []),
  ];
  return `Simulated inputs: ${parts.join(', ')}. Every figure here is synthetic.`;
}

function render(health: Health, status: Status): HTMLElement[] {
  const d = health.dependencies;
  const simulated = simulatedInputs(health.inputs);
  const live = d.live_projector;
  const latency = status.live_latency;
  return [
    h(
      'p',
      { class: `health health-${health.status}` },
      h('span', { class: 'dot', 'aria-hidden': 'true' }),
      health.status === 'ok' && health.reasons.length === 0 ? HEALTH_TEXT.ok : HEALTH_TEXT[health.status === 'ok' ? 'degraded' : health.status],
    ),
    ...(health.reasons.length ? [h('ul', { class: 'health-reasons' }, ...health.reasons.map((r) => h('li', { 'data-code': r.code }, r.message)))] : []),
    ...(simulated ? [notice('info', simulated)] : []),
    h(
      'dl',
      { class: 'facts' },
      row('PostgreSQL', state(d.postgres.state)),
      row('Temporal', state(d.temporal.state)),
      row('Live list', state(live.state), live.age_s === null ? '' : ` · built ${age(live.age_s)} ago`),
      ...status.daemons.flatMap((dm) => row(dm.name, state(dm.state), dm.age_s === null ? '' : ` · beat ${age(dm.age_s)} ago`)),
      row('/api/live', latency.p50_ms === null ? 'no requests yet' : `p50 ${latency.p50_ms.toFixed(0)} ms · p99 ${(latency.p99_ms ?? 0).toFixed(0)} ms`),
      row('API', `${status.version} · up ${age(status.uptime_s)}`),
      row('Watchdog', health.tick ? `tick ${ago(health.tick.at)}` : DASH),
    ),
  ];
}

/** Service status from /api/health and /api/status, refreshed every 15 s. */
export function statusPanel(): HTMLElement {
  const body = h('div', { class: 'status-body' }, h('p', { class: 'muted' }, 'Loading…'));
  const element = panel('status', 'Service status', body);
  const retry = backoff(15_000, 60_000);
  poll(async () => {
    try {
      const [health, status] = await Promise.all([api.GET('/api/health'), api.GET('/api/status')]);
      if (!health.data || !status.data) {
        fill(body, notice('problem', `Status unavailable (HTTP ${health.response.status} / ${status.response.status}).`));
        return retry.failed();
      }
      fill(body, ...render(health.data, status.data));
      return retry.ok();
    } catch (e) {
      if (!unreachable(e)) throw e;
      fill(body, notice('problem', 'The API is unreachable; retrying.'));
      return retry.failed();
    }
  });
  return element;
}
