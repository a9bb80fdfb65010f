import type { WalletCounts } from './wallet-record';

/**
 * smart_score: graduation rate minus rug rate, weighted by sample size through empirical-Bayes shrinkage
 * toward published prior rates. With n launches bought, g graduated and r rugged, prior rates p_g and p_r
 * and prior strength k (worth k launches):
 *
 *   smart_score = (g + k·p_g)/(n + k) − (r + k·p_r)/(n + k) = (g − r + c)/(n + k),  c = k·(p_g − p_r)
 *
 * Each term is the posterior mean of a beta-binomial rate (a Beta(k·p, k·(1 − p)) prior), so a wallet with
 * few launches sits near the prior difference p_g − p_r and moves to its own g/n − r/n as n grows; the score
 * stays inside (−1, 1). Why this and not a lower confidence bound: it is linear in the counts, so it is
 * computed identically in SQL and here, an expression index can rank 5M wallets on it, and its value is a
 * rate difference a reader can interpret; a Wilson bound of a difference has no closed form that does those.
 *
 * The priors are FIXED per version, not re-estimated from the live population: population rates drift
 * (graduation 1.4–2.6% in 2024, 0.63% in Sept 2025, ~0.2–0.3% in mid 2026), and a score that moved with them
 * would need all 5M rows recomputed. A new estimate (estimateBetaPrior over our own records) is published as a
 * new version, whose expression index is built beside the old one; records themselves never change.
 *
 * smart-v1: p_g = 0.01 (a random launch: 1% is the middle of the observed 0.2–2.6% on a log scale, and the
 * simulator's share), p_r = 0.21 (rug-v2 labels ~22% of simulated launches), k = 5. k is set so that the spec's
 * two numbers mean something: with c = −0.2k, a wallet at the minimum sample of 8 with five graduates and no rug
 * (62.5%, sixty times the base rate) qualifies iff k ≤ 5.2, four graduates of 8 iff k ≤ 3.2, a perfect 8 of 8
 * iff k ≤ 11.2; k = 5 is the round value where 5 of 8 is enough and 4 of 8 is not. Much larger, and min_total 8
 * would be dead letter (at k = 20 not even a perfect record qualifies before n = 15). (estimateBetaPrior on the simulator's
 * wallets reads k ≈ 22, a synthetic population; the next version takes k from our own records.)
 * c = 5·(0.01 − 0.21) = −1, so
 *
 *   smart-v1 = (g − r − 1)/(n + 5).
 *
 * Scale of the 0.30 threshold under smart-v1: 10·(g − r) ≥ 3n + 25, i.e. at n = 8 five net graduates (g − r ≥ 5),
 * at n = 20 nine (45%), at n = 100 thirty-three, tending to 30 points of graduation rate above rug rate. A wallet
 * buying random launches (p_g 0.2–2%, p_r 21%) qualifies at n = 8 with probability 9e-13 to 8e-8: none among
 * millions. Buyers are not spread evenly, though: graduates draw far more buyers than dead launches, so a random
 * BUYER's graduation rate is ~13% (simulator), and at 13%/35% the chance is 4e-4 at n = 8 (docs/wallet-index.md).
 */
export type SmartScoreVersion = {
  id: string;
  priorGraduationRate: number;
  priorRugRate: number;
  priorStrength: number;
  /** c = k·(p_g − p_r), rounded to 1e-12 so a round prior gives a round offset (v1: exactly −1). */
  offset: number;
};

export function defineSmartScoreVersion(id: string, priorGraduationRate: number, priorRugRate: number, priorStrength: number): SmartScoreVersion {
  if (!/^smart-v\d+$/.test(id)) throw new RangeError(`a smart score version is smart-v<N>, got ${id}`);
  for (const p of [priorGraduationRate, priorRugRate]) if (!(p >= 0 && p <= 1)) throw new RangeError(`prior rates lie in [0, 1], got ${p}`);
  if (!(priorGraduationRate + priorRugRate <= 1)) throw new RangeError('graduated and rugged are exclusive: p_g + p_r ≤ 1');
  if (!(priorStrength > 0 && Number.isFinite(priorStrength))) throw new RangeError(`prior strength must be > 0, got ${priorStrength}`);
  const offset = Math.round(priorStrength * (priorGraduationRate - priorRugRate) * 1e12) / 1e12;
  return { id, priorGraduationRate, priorRugRate, priorStrength, offset };
}

export const SMART_V1 = defineSmartScoreVersion('smart-v1', 0.01, 0.21, 5);
export const SMART_SCORE_VERSIONS: ReadonlyMap<string, SmartScoreVersion> = new Map([[SMART_V1.id, SMART_V1]]);
export const CURRENT_SMART_SCORE_VERSION = SMART_V1;

export function smartScoreVersion(id: string): SmartScoreVersion {
  const v = SMART_SCORE_VERSIONS.get(id);
  if (!v) throw new RangeError(`unknown smart score version ${id} (known: ${[...SMART_SCORE_VERSIONS.keys()].join(', ')})`);
  return v;
}

/** The score of any record, the empty one included (it scores the prior difference). */
export function smartScore(r: Pick<WalletCounts, 'total' | 'graduated' | 'rugged'>, v: SmartScoreVersion = CURRENT_SMART_SCORE_VERSION): number {
  return (r.graduated - r.rugged + v.offset) / (r.total + v.priorStrength);
}

/** "Smart wallet" for smart_money_in and smart_money_active (spec: min_total ≥ 8 and smart_score ≥ 0.30). */
export type SmartCriteria = { minTotal: number; minScore: number };
export const DEFAULT_SMART_CRITERIA: SmartCriteria = { minTotal: 8, minScore: 0.3 };

/** The score as published: null below the minimum sample (openapi `smart_score`). */
export function publishedSmartScore(
  r: Pick<WalletCounts, 'total' | 'graduated' | 'rugged'>,
  v: SmartScoreVersion = CURRENT_SMART_SCORE_VERSION,
  c: SmartCriteria = DEFAULT_SMART_CRITERIA,
): number | null {
  return r.total >= c.minTotal ? smartScore(r, v) : null;
}

export function isSmartWallet(
  r: Pick<WalletCounts, 'total' | 'graduated' | 'rugged'>,
  v: SmartScoreVersion = CURRENT_SMART_SCORE_VERSION,
  c: SmartCriteria = DEFAULT_SMART_CRITERIA,
): boolean {
  return r.total >= c.minTotal && smartScore(r, v) >= c.minScore;
}

/** A float8 literal Postgres parses to the same double (JS prints the shortest round-trip form). */
export const float8 = (x: number): string => {
  if (!Number.isFinite(x)) throw new RangeError(`not a finite number: ${x}`);
  return `'${String(x)}'::float8`;
};

/**
 * The score as a SQL expression over integer count columns, with the same operations in the same order as
 * smartScore (integer g − r exact, + c, ÷ (n + k)), so Postgres computes the same double bit for bit and an
 * expression index on it ranks exactly what this module scores.
 */
export function smartScoreSql(v: SmartScoreVersion = CURRENT_SMART_SCORE_VERSION, col = { graduated: 'graduated', rugged: 'rugged', total: 'total' }): string {
  return `(((${col.graduated} - ${col.rugged})::float8 + ${float8(v.offset)}) / (${col.total} + ${float8(v.priorStrength)}))`;
}

/**
 * Method-of-moments estimate of a beta prior (mean and strength k) from per-wallet counts, for publishing the
 * next version from our own data. Under a beta-binomial, Var(x_i) = n_i·μ(1 − μ)·(1 + (n_i − 1)ρ) with
 * ρ = 1/(k + 1); so ρ̂ = Σ[(x_i − n_i·μ)² − n_i·μ(1 − μ)] / Σ[n_i(n_i − 1)·μ(1 − μ)] over wallets with n_i ≥ 2.
 * Null when the sample says nothing (no wallet with two launches, a rate of 0 or 1, no over-dispersion).
 */
export function estimateBetaPrior(samples: readonly { x: number; n: number }[]): { mean: number; strength: number } | null {
  let sx = 0;
  let sn = 0;
  for (const s of samples) {
    sx += s.x;
    sn += s.n;
  }
  if (sn === 0) return null;
  const mu = sx / sn;
  const v = mu * (1 - mu);
  if (v === 0) return null;
  let num = 0;
  let den = 0;
  for (const s of samples) {
    if (s.n < 2) continue;
    num += (s.x - s.n * mu) ** 2 - s.n * v;
    den += s.n * (s.n - 1) * v;
  }
  if (den === 0 || num <= 0) return null;
  const rho = Math.min(1, num / den);
  return { mean: mu, strength: 1 / rho - 1 };
}
