import type { Schemas } from '../../clients/api/api-client';
import { h, type Child } from '../lib/dom';
import { DASH, age, mult, pct, shortAddress, sol, usd } from '../lib/format';

export type Mint = Schemas['EnrichedMint'];
export type SortDir = 'ascending' | 'descending';

/** A wallet counts as smart money at a smart score of 0.30 or more (spec: smart_money_active). */
const SMART_SCORE = 0.3;

/** Smart wallets among the top buyers; null while no top buyer has a score (the wallet index is not live). */
export function smartMoney(m: Mint): number | null {
  const scored = m.top_buyers.filter((b) => b.smart_score !== null);
  return scored.length === 0 ? null : scored.filter((b) => (b.smart_score ?? 0) >= SMART_SCORE).length;
}

const FLAG_LABELS: Record<Schemas['RugFlag']['flag'], [string, string]> = {
  bundle_pct: ['bundle', 'creation-slot bundle bought'],
  holder_concentration: ['top-10', 'top-10 holders hold'],
  fresh_wallet_first3: ['fresh 3', 'first three buyers fresh'],
  bundle_dump_in_progress: ['dump', 'bundle has sold'],
};

export type Column = {
  key: string;
  label: string;
  /** What the header's title says the column is. */
  title: string;
  numeric: boolean;
  firstDir: SortDir;
  /** The sort value; null sorts last in either direction. */
  value(m: Mint, ageS: number): number | string | null;
  cell(m: Mint, ageS: number): Child | Child[];
};

const small = (...c: Child[]) => h('span', { class: 'sub' }, ...c);

function gradCell(m: Mint): Child[] {
  if (m.grad_prob === null) return [h('span', { class: 'muted', title: 'Scored at 30 s and 60 s of age; shown until 120 s' }, DASH)];
  const c = m.grad_prob_calibration;
  const band = c && `${Math.round(c.confidence_band.lo * 100)}–${Math.round(c.confidence_band.hi * 100)}%`;
  const cell = !c
    ? 'no calibration cell'
    : c.n === 0
      ? `cell ${band}: none resolved yet`
      : `cell ${band}: ${pct(c.historical_actual_rate)} of ${c.n.toLocaleString('en-US')} graduated`;
  return [h('strong', {}, pct(m.grad_prob)), ' ', small(`@${m.grad_prob_age_bucket ?? '?'} s`), h('span', { class: 'sub block' }, cell)];
}

function runnerCell(m: Mint): Child[] {
  if (m.runner_prob_2x_from_now === null) return [h('span', { class: 'muted' }, DASH)];
  const tiers: [string, number | null][] = [
    ['2×', m.runner_prob_2x_from_now],
    ['5×', m.runner_prob_5x_from_now],
    ['10×', m.runner_prob_10x_from_now],
  ];
  return tiers.map(([t, p]) => h('span', { class: 'odds' }, h('span', { class: 'sub' }, t), ' ', pct(p)));
}

function rugCell(m: Mint): Child[] {
  const flags = m.rug_heuristic.filter((f) => f.triggered);
  return [
    m.rug_prob === null ? h('span', { class: 'muted' }, DASH) : h('strong', {}, pct(m.rug_prob)),
    flags.length ? ' ' : null,
    ...flags.map((f) => {
      const [label, what] = FLAG_LABELS[f.flag];
      const value = f.flag === 'fresh_wallet_first3' || f.flag === 'bundle_dump_in_progress' ? String(f.value) : pct(f.value, 0);
      return h('span', { class: 'flag', title: `${what}: ${value} (threshold ${f.threshold})` }, label);
    }),
  ];
}

export const COLUMNS: Column[] = [
  {
    key: 'mint',
    label: 'Mint',
    title: 'Name, symbol and address; opens the mint’s page',
    numeric: false,
    firstDir: 'ascending',
    value: (m) => (m.name || m.symbol || m.mint).toLowerCase(),
    cell: (m) => [
      h('a', { href: `/mint/${m.mint}` }, m.name || shortAddress(m.mint)),
      m.symbol ? [' ', h('span', { class: 'sym' }, m.symbol)] : null,
      h('span', { class: 'sub block mono' }, shortAddress(m.mint)),
    ],
  },
  { key: 'age', label: 'Age', title: 'Time since launch', numeric: true, firstDir: 'ascending', value: (_m, a) => a, cell: (_m, a) => age(a) },
  {
    key: 'grad',
    label: 'grad_prob',
    title: 'Calibrated graduation probability, and how its calibration cell did on resolved mints',
    numeric: true,
    firstDir: 'descending',
    value: (m) => m.grad_prob,
    cell: gradCell,
  },
  {
    key: 'runner',
    label: 'Runner odds',
    title: 'Chance of reaching 2×, 5×, 10× the price at scoring (sorts by 5×)',
    numeric: true,
    firstDir: 'descending',
    value: (m) => m.runner_prob_5x_from_now,
    cell: runnerCell,
  },
  {
    key: 'rug',
    label: 'Rug',
    title: 'rug_prob and the rug flags that triggered',
    numeric: true,
    firstDir: 'descending',
    value: (m) => (m.rug_prob === null ? null : m.rug_prob + m.rug_heuristic.filter((f) => f.triggered).length * 1e-6),
    cell: rugCell,
  },
  {
    key: 'smart',
    label: 'Smart money',
    title: 'Smart wallets among the top buyers (— until the wallet index is live)',
    numeric: true,
    firstDir: 'descending',
    value: smartMoney,
    cell: (m) => {
      const n = smartMoney(m);
      return n === null ? h('span', { class: 'muted' }, DASH) : String(n);
    },
  },
  {
    key: 'mult',
    label: 'Multiple',
    title: 'Price now over the launch price',
    numeric: true,
    firstDir: 'descending',
    value: (m) => m.current_mult,
    cell: (m) => mult(m.current_mult),
  },
  {
    key: 'mcap',
    label: 'Market cap',
    title: 'Market cap in USD beside SOL (SOL alone while no SOL/USD price is cached)',
    numeric: true,
    firstDir: 'descending',
    value: (m) => m.market_cap_sol,
    cell: (m) => (m.market_cap_usd === null ? sol(m.market_cap_sol) : `${usd(m.market_cap_usd)} · ${sol(m.market_cap_sol)}`),
  },
];

/** Orders rows by `column`, nulls last in either direction, ties by address so the order never flickers. */
export function compareBy(column: Column, dir: SortDir, ageOf: (m: Mint) => number): (a: Mint, b: Mint) => number {
  const sign = dir === 'ascending' ? 1 : -1;
  return (a, b) => {
    const va = column.value(a, ageOf(a));
    const vb = column.value(b, ageOf(b));
    if (va === null || vb === null) return va === vb ? a.mint.localeCompare(b.mint) : va === null ? 1 : -1;
    const c = typeof va === 'string' || typeof vb === 'string' ? String(va).localeCompare(String(vb)) : va - vb;
    return c !== 0 ? sign * c : a.mint.localeCompare(b.mint);
  };
}
