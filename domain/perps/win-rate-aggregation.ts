import { PERPS_HORIZONS, type PerpsHorizon } from './perps-types';

/**
 * Per-horizon win rates and mean moves, per wallet, per market and overall. The sums (n, wins, Σ move) are
 * additive, so a projection can keep them in one row per (scope, horizon) and add each judgment with an
 * UPDATE … SET n = n + 1, and two partial aggregates merge exactly.
 */
export type HorizonSums = { n: number; wins: number; sumMoveBps: number };
export type HorizonStat = { horizon: PerpsHorizon; n: number; winRate: number | null; meanMoveBps: number | null };
export type ScopeSums = Record<PerpsHorizon, HorizonSums>;

export type JudgedEntry = { wallet: string; market: string; horizon: PerpsHorizon; moveBps: number; win: boolean };

export function emptyScope(): ScopeSums {
  return Object.fromEntries(PERPS_HORIZONS.map((h) => [h, { n: 0, wins: 0, sumMoveBps: 0 }])) as ScopeSums;
}

export function addJudgment(s: ScopeSums, j: Pick<JudgedEntry, 'horizon' | 'moveBps' | 'win'>): void {
  const h = s[j.horizon];
  h.n++;
  if (j.win) h.wins++;
  h.sumMoveBps += j.moveBps;
}

export function mergeScopes(a: ScopeSums, b: ScopeSums): ScopeSums {
  const out = emptyScope();
  for (const h of PERPS_HORIZONS) out[h] = { n: a[h].n + b[h].n, wins: a[h].wins + b[h].wins, sumMoveBps: a[h].sumMoveBps + b[h].sumMoveBps };
  return out;
}

export function horizonStats(s: ScopeSums): HorizonStat[] {
  return PERPS_HORIZONS.map((horizon) => {
    const { n, wins, sumMoveBps } = s[horizon];
    return { horizon, n, winRate: n ? wins / n : null, meanMoveBps: n ? sumMoveBps / n : null };
  });
}

export function aggregateJudgments(judged: readonly JudgedEntry[]): { overall: ScopeSums; byWallet: Map<string, ScopeSums>; byMarket: Map<string, ScopeSums> } {
  const overall = emptyScope();
  const byWallet = new Map<string, ScopeSums>();
  const byMarket = new Map<string, ScopeSums>();
  const into = (m: Map<string, ScopeSums>, k: string) => m.get(k) ?? (m.set(k, emptyScope()), m.get(k)!);
  for (const j of judged) {
    addJudgment(overall, j);
    addJudgment(into(byWallet, j.wallet), j);
    addJudgment(into(byMarket, j.market), j);
  }
  return { overall, byWallet, byMarket };
}
