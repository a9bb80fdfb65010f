import { CURVE } from '../launch/launch-events';
import { RUNNER_GRID_AGES_S } from '../scoring/runner-grid';
import { VSOL_BANDS } from './vsol-lift';

/**
 * Base rates by band: of the resolved launches that stood in a virtual-SOL band at a grid age, how many graduated,
 * reached 2×/5×/10× from the price at that point, and rugged. The honest "what usually happens from here" a trader
 * sets beside any score. Bands are the accuracy page's virtual-SOL bands (vsol-lift.ts, fixed before any data was
 * read) crossed with the from-now runner grid's ages, where every resolved launch has one observation per age.
 */
export const BASE_RATE_MULTIPLES = [2, 5, 10] as const;

const LAMPORTS_PER_SOL = 1e9;
export const INITIAL_VSOL_SOL = CURVE.initialVSolLamports / LAMPORTS_PER_SOL;
export const GRADUATION_VSOL_SOL = CURVE.graduationVSolLamports / LAMPORTS_PER_SOL;
/** vSol × vTokens of the constant-product curve, in SOL × whole tokens. */
export const CURVE_INVARIANT = INITIAL_VSOL_SOL * (CURVE.initialVTokensRaw / 10 ** CURVE.tokenDecimals);

/** On the curve price = vSol / vTokens and vSol × vTokens is constant, so vSol = √(price × invariant). */
export const vSolOfPrice = (priceSol: number): number => Math.sqrt(priceSol * CURVE_INVARIANT);

/**
 * A buy on the curve at vSol v returns (115 / v)² if the curve completes, so holding to graduation pays only if
 * P(graduate) > (v / 115)² (the buy-and-hold breakeven the graduation literature draws its curves against).
 */
export const breakevenGradProb = (vSolSol: number): number => (Math.max(vSolSol, INITIAL_VSOL_SOL) / GRADUATION_VSOL_SOL) ** 2;

/** The inner edges for SQL's width_bucket: bucket i (0-based) is VSOL_BANDS[i]. */
export const VSOL_INNER_EDGES = VSOL_BANDS.slice(1).map((b) => b.lo);

export type BaseRateCounts = {
  ageS: number;
  /** Index into VSOL_BANDS. */
  band: number;
  launches: number;
  graduated: number;
  /** Launches whose peak after the observation reached each of BASE_RATE_MULTIPLES, in that order. */
  reached: readonly number[];
  /** Launches labelled by the current rug definition, and those of them that rugged. */
  rugLabelled: number;
  rugged: number;
};

const share = (k: number, n: number) => (n > 0 ? k / n : null);

/** Every (age, band) cell, empty ones included, so a reader sees where the window holds nothing. */
export function baseRateCells(counts: readonly BaseRateCounts[]) {
  return RUNNER_GRID_AGES_S.flatMap((ageS) =>
    VSOL_BANDS.map((b, band) => {
      const c = counts.find((x) => x.ageS === ageS && x.band === band);
      const n = c?.launches ?? 0;
      const lo = Math.max(b.lo, INITIAL_VSOL_SOL);
      const hi = b.hi ?? GRADUATION_VSOL_SOL;
      return {
        age_s: ageS,
        v_sol_lo: lo,
        v_sol_hi: hi,
        launches: n,
        graduated: c?.graduated ?? 0,
        graduated_share: share(c?.graduated ?? 0, n),
        reached: BASE_RATE_MULTIPLES.map((m, i) => ({ multiple: m, launches: c?.reached[i] ?? 0, share: share(c?.reached[i] ?? 0, n) })),
        rug_labelled: c?.rugLabelled ?? 0,
        rugged: c?.rugged ?? 0,
        rugged_share: share(c?.rugged ?? 0, c?.rugLabelled ?? 0),
        // From the band's top to its bottom: a buy at the top needs the most.
        breakeven_grad_prob: { at_lo: breakevenGradProb(lo), at_hi: breakevenGradProb(hi) },
      };
    }),
  );
}
export type BaseRateCell = ReturnType<typeof baseRateCells>[number];
