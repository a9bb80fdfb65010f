import type { Schemas } from '../../clients/api/api-client';
import { table } from '../accuracy/accuracy-tables';
import { h, type Child } from '../lib/dom';
import { gradProbText, type Logged } from './grad-prob-text';
import { DASH, age, dateTime, int, mult, pct, sol, usd } from '../lib/format';

// The probe's body has no address (the lists' entries do); the page knows it from its URL.
type Mint = Schemas['EnrichedMintFields'];
type Predictions = Schemas['PredictionsByMint'];

const fact = (term: string, ...value: Child[]) => [h('dt', {}, term), h('dd', {}, ...value)];
const yesNo = (b: boolean | null) => (b === null ? DASH : b ? 'yes' : 'no');

/** The mint as the live list or probe serves it now: the scores, the market, the creator, the flags and top buyers. */
export function mintNow(m: Mint, source: string, latest?: Logged): Child[] {
  const c = m.grad_prob_calibration;
  const tiers: [string, number | null][] = [
    ['2×', m.runner_prob_2x_from_now],
    ['3×', m.runner_prob_3x_from_now],
    ['5×', m.runner_prob_5x_from_now],
    ['10×', m.runner_prob_10x_from_now],
    ['20×', m.runner_prob_20x_from_now],
  ];
  return [
    h('p', { class: 'sub' }, `From ${source}, updated ${dateTime(m.updated_at)}.`),
    h(
      'dl',
      { class: 'metrics wide' },
      ...fact('grad_prob', gradProbText(m, latest)),
      ...fact(
        'calibration cell',
        c
          ? `${pct(c.confidence_band.lo, 0)}–${pct(c.confidence_band.hi, 0)} at ${c.age_bucket} s: ${c.n ? `${pct(c.historical_actual_rate)} of ${int(c.n)} graduated` : 'none resolved yet'}`
          : DASH,
      ),
      ...fact('rug_prob', pct(m.rug_prob)),
      ...fact('runner odds', m.runner_prob_2x_from_now === null ? DASH : tiers.map(([t, p]) => `${t} ${pct(p)}`).join(' · ')),
      ...fact('price at scoring', m.runner_reference_price_sol === null ? DASH : `${m.runner_reference_price_sol.toExponential(3)} SOL`),
      ...fact('age', age(m.age_s)),
      ...fact('multiple', mult(m.current_mult)),
      ...fact(
        'market cap',
        m.market_cap_usd === null ? `${sol(m.market_cap_sol)} (no SOL/USD price yet)` : `${usd(m.market_cap_usd)} (${sol(m.market_cap_sol)})`,
      ),
      ...fact('curve', `${pct(m.curve_progress, 0)} sold${m.graduated_at ? `, graduated ${dateTime(m.graduated_at)}` : ''}`),
      ...fact('trades · buyers', `${int(m.trades)} · ${int(m.unique_buyers)}`),
      ...fact('creator', `${int(m.n_launches)} resolved launches, ${pct(m.rate_5x)} reached 5×, runner creator: ${yesNo(m.runner_creator)}`),
      ...fact(
        'after graduation',
        m.post_grad_survival_status === 'live' ? `holds 30 min: ${pct(m.post_grad_survival_prob)}` : 'survival odds suspended (see accuracy)',
      ),
      ...fact('hidden from the list', m.hide_reason ?? 'no'),
    ),
    h(
      'div',
      { class: 'pair' },
      table(
        'Rug flags',
        ['flag', 'value', 'threshold', 'triggered'],
        m.rug_heuristic.map((f) => [f.flag, String(+f.value.toFixed(4)), String(f.threshold), f.triggered ? 'yes' : 'no']),
      ),
      m.top_buyers.length
        ? table(
            'Top buyers',
            ['wallet', 'SOL in', 'share of supply', 'smart score'],
            m.top_buyers.map((b) => [
              h('span', { class: 'mono' }, b.wallet_prefix),
              b.sol_in.toFixed(3),
              pct(b.share),
              b.smart_score === null ? DASH : b.smart_score.toFixed(2),
            ]),
          )
        : h('p', { class: 'muted' }, 'No buyers yet.'),
    ),
  ];
}

/** Every logged prediction with its outcome and, once its hour is committed, its proof. */
export function predictionsView(p: Predictions): Child[] {
  if (p.count === 0) return [h('p', { class: 'muted' }, 'No prediction was logged for this mint (it was not scored: too late, or out of scope).')];
  const first = p.predictions[0]!;
  const outcome =
    first.resolved_at === null
      ? 'Not resolved yet: a mint resolves 24 h after launch.'
      : `Resolved ${dateTime(first.resolved_at)}: ${first.did_graduate ? 'graduated' : 'did not graduate'}.`;
  return [
    h('p', { class: 'outcome' }, h('strong', {}, 'Outcome. '), outcome),
    table(
      'Logged predictions',
      ['id', 'age', 'grad_prob', 'logged', 'model', 'ledger'],
      p.predictions.map((r) => [
        String(r.prediction_id),
        `${r.age_bucket} s`,
        pct(r.predicted_prob, 2),
        dateTime(r.predicted_at),
        h('span', { class: 'mono' }, r.model_version),
        r.committed
          ? h('a', { href: `/audit?prediction=${r.prediction_id}` }, 'check proof')
          : h('span', { class: 'muted' }, `hour ${r.ledger_hour_start.slice(11, 16)} UTC not committed yet`),
      ]),
      { numeric: [0, 2] },
    ),
  ];
}
